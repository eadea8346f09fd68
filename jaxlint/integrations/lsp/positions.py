"""Positions between jaxlint and the editor: lines split as LSP splits them, columns in the
client's position encoding (UTF-16 by default), and jaxlint diagnostics and edits as LSP ones.

jaxlint counts 1-based lines and code-point columns; an LSP client counts 0-based lines and
columns in its negotiated units. Every conversion goes through `LineIndex`, so no handler does
its own arithmetic (and a non-BMP character or a form feed cannot shift a range).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from jaxlint.core.diagnostic import Diagnostic, Position
from jaxlint.integrations.formats import rule_url

SOURCE = "jaxlint"
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")  # LSP line breaks only
_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
}


def split_lines(text: str) -> list[str]:
    """Lines with their endings, split on `\\r\\n`, `\\r` and `\\n` only.

    LSP and jaxlint's `SourceText` both count lines this way; `str.splitlines` (which pygls'
    `TextDocument.lines` uses) also splits on form feeds, `\\x1c`-`\\x1e`, `\\x85`, U+2028 and
    U+2029, which would shift every later line.
    """
    return _LINE.findall(text)


@dataclass(frozen=True)
class LineIndex:
    """Converts between jaxlint positions (1-based line, code-point column) and LSP ones."""

    lines: tuple[str, ...]
    codec: PositionCodec

    @classmethod
    def of(cls, text: str, codec: PositionCodec) -> LineIndex:
        return cls(tuple(split_lines(text)), codec)

    def _content(self, line0: int) -> str:
        return self.lines[line0].rstrip("\r\n")

    def end(self) -> types.Position:
        if not self.lines:
            return types.Position(line=0, character=0)
        last = self.lines[-1]
        if last.endswith(("\n", "\r")):
            return types.Position(line=len(self.lines), character=0)
        return types.Position(line=len(self.lines) - 1, character=self.codec.client_num_units(last))

    def to_client(self, line: int, col: int) -> types.Position:
        """jaxlint (1-based line, code points) -> LSP position in the client's units."""
        line0 = line - 1
        if line0 < 0:
            return types.Position(line=0, character=0)
        if line0 >= len(self.lines):
            return self.end()
        content = self._content(line0)
        col = max(0, min(col, len(content)))
        return types.Position(line=line0, character=self.codec.client_num_units(content[:col]))

    def range_to_client(self, start: Position, end: Position) -> types.Range:
        return types.Range(
            start=self.to_client(start.line, start.col), end=self.to_client(end.line, end.col)
        )

    def line_start(self, line0: int) -> types.Position:
        """Start of the 0-based line `line0`; the end of the text for `line0 == len(lines)`."""
        if line0 < len(self.lines):
            return types.Position(line=line0, character=0)
        return self.end()

    def from_client(self, pos: types.Position) -> tuple[int, int]:
        """LSP position -> (0-based line, code-point column), clamped to the text."""
        if not self.lines:
            return (0, 0)
        if pos.line >= len(self.lines):
            return (len(self.lines), 0)
        content = self._content(pos.line)
        units = 0
        for i, ch in enumerate(content):
            if units >= pos.character:
                return (pos.line, i)
            units += self.codec.client_num_units(ch)
        return (pos.line, len(content))


def to_lsp(d: Diagnostic, index: LineIndex) -> types.Diagnostic:
    """A jaxlint finding as an LSP diagnostic (with a link to the rule's docs)."""
    return types.Diagnostic(
        range=index.range_to_client(d.span.start, d.span.end),
        message=d.message,
        severity=_SEVERITY.get(d.severity, types.DiagnosticSeverity.Warning),
        code=d.code,
        code_description=(
            types.CodeDescription(href=rule_url(d.code)) if d.code != "JAX000" else None
        ),
        source=SOURCE,
    )


def text_edits(edits, index: LineIndex) -> list[types.TextEdit]:  # noqa: ANN001
    """A fix's edits as LSP text edits, in document order."""
    return [
        types.TextEdit(range=index.range_to_client(e.start, e.end), new_text=e.content)
        for e in sorted(edits, key=lambda e: (e.start, e.end))
    ]


def diff_edits(old: str, new: str, index: LineIndex) -> list[types.TextEdit]:
    """Whole-line edits turning `old` into `new` (so the editor keeps cursor and folds)."""
    a, b = split_lines(old), split_lines(new)
    out = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        out.append(
            types.TextEdit(
                range=types.Range(start=index.line_start(i1), end=index.line_start(i2)),
                new_text="".join(b[j1:j2]),
            )
        )
    return out


def overlaps(d: Diagnostic, start: tuple[int, int], end: tuple[int, int]) -> bool:
    """Whether the finding touches the (0-based line, column) range `start`..`end`."""
    d_start = (d.span.start.line - 1, d.span.start.col)
    d_end = (d.span.end.line - 1, d.span.end.col)
    return d_start <= end and start <= d_end
