"""Reading source text faithfully: encoding (PEP 263, BOM), newline style, positions.

Fixes are written back through the same object, so what was read (BOM, encoding, CRLF,
final newline) is exactly what gets written.
"""

from __future__ import annotations

import io
import re
import tokenize
from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import accumulate, repeat
from operator import add

from jaxlint.core.diagnostic import Edit, Position

_NEWLINE = re.compile(r"\r\n|\r|\n")
BOM = b"\xef\xbb\xbf"


class ReadError(Exception):
    """The file's bytes cannot be turned into Python source text."""


@dataclass
class SourceText:
    """Decoded module text plus what is needed to map positions and write it back."""

    text: str
    encoding: str = "utf-8"
    bom: bool = False
    _line_starts: list[int] | None = field(default=None, repr=False)

    @property
    def newline(self) -> str:
        m = _NEWLINE.search(self.text)
        return m.group(0) if m else "\n"

    @property
    def line_starts(self) -> list[int]:
        if self._line_starts is None:
            text = self.text
            if "\r" in text:
                starts = [0]
                starts.extend(m.end() for m in _NEWLINE.finditer(text))
            else:  # "\n" only: the lines' lengths, summed in C
                lines = text.split("\n")
                starts = list(accumulate(map(add, map(len, lines[:-1]), repeat(1)), initial=0))
            self._line_starts = starts
        return self._line_starts

    @property
    def line_count(self) -> int:
        return len(self.line_starts)

    def line(self, lineno: int) -> str:
        """Line `lineno` (1-based) without its newline."""
        starts = self.line_starts
        if lineno < 1 or lineno > len(starts):
            return ""
        start = starts[lineno - 1]
        end = starts[lineno] if lineno < len(starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")

    def offset(self, pos: Position) -> int:
        starts = self.line_starts
        line = min(max(pos.line, 1), len(starts))
        return min(starts[line - 1] + pos.col, len(self.text))

    def position(self, offset: int) -> Position:
        line = bisect_right(self.line_starts, offset)
        return Position(line, offset - self.line_starts[line - 1])

    def col_from_utf8(self, lineno: int, byte_col: int) -> int:
        """`ast` columns count UTF-8 bytes; diagnostics count code points."""
        text = self.line(lineno)
        if text.isascii():
            return byte_col
        return len(text.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))

    def apply(self, edits: list[Edit]) -> str:
        """Apply non-overlapping edits (callers guarantee no overlap)."""
        text = self.text
        pieces = []
        at = 0  # one pass over the text: many edits (a module's fixes together) stay linear
        # insertions at one point land in the reverse of their order in `edits` (as when
        # they were applied from the end, one by one)
        order = sorted(range(len(edits)), key=lambda i: (edits[i].start, edits[i].end, -i))
        for edit in (edits[i] for i in order):
            a, b = self.offset(edit.start), self.offset(edit.end)
            pieces.append(text[at:a])
            pieces.append(edit.content)
            at = max(at, b)
        pieces.append(text[at:])
        return "".join(pieces)

    def encode(self, text: str | None = None) -> bytes:
        data = (self.text if text is None else text).encode(
            "utf-8" if self.encoding in ("utf-8-sig", "utf8") else self.encoding
        )
        return (BOM + data) if self.bom else data


def decode_source(data: bytes) -> SourceText:
    """Decode bytes the way Python does (BOM, PEP 263 cookie), refusing binary files."""
    if b"\x00" in data:
        raise ReadError("file contains NUL bytes (binary file?)")
    bom = data.startswith(BOM)
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:  # bad or unknown coding cookie
        raise ReadError(str(exc)) from None
    body = data[len(BOM) :] if bom else data
    codec = "utf-8" if encoding == "utf-8-sig" else encoding
    try:
        text = body.decode(codec)
    except (UnicodeDecodeError, LookupError) as exc:
        raise ReadError(f"cannot decode as {encoding}: {exc}") from None
    return SourceText(text=text, encoding=encoding, bom=bom)
