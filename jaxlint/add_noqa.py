"""`jaxlint check --add-noqa`: silence every current finding with a `# noqa: CODE` comment.

The way to adopt jaxlint on a large codebase (as ruff's `--add-noqa`): the existing findings
are marked, new code is held to the rules, and the opt-in JAX001 later reports the comments
that no longer suppress anything.

Where the comment goes follows flake8's noqa rules (which `jaxlint check` shares): flake8
looks for `# noqa` in the text of the reported line's token range, which ends at the next
NL/NEWLINE token. So the comment goes at the end of that range's last line: after the
closing quotes of a multi-line string or after a backslash continuation, never inside a
string. An existing `# noqa: A` there becomes `# noqa: A, JAX101`; a line whose noqa text is
inside a string (flake8 would read that one first) is left alone. The file is rewritten
atomically, keeping its encoding, BOM and newlines. Running it twice adds nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from jaxlint.core.diagnostic import Diagnostic, Edit, Position
from jaxlint.core.source import SourceText
from jaxlint.core.suppressions import NOQA, UNUSED_CODE, split_lines, token_ranges


@dataclass
class AddNoqaResult:
    text: str
    added: int  # directives added or extended
    skipped: int = 0  # lines where no comment can be honoured


def add_noqa_text(source: SourceText, diags: Iterable[Diagnostic]) -> AddNoqaResult:
    """`source` with `# noqa: CODES` for every finding in `diags`."""
    wanted = [d for d in diags if d.code not in ("JAX000", UNUSED_CODE) and d.cell is None]
    if not wanted:
        return AddNoqaResult(source.text, 0)
    lines = split_lines(source.text)
    ranges, comments = token_ranges(source.text)
    if not ranges:
        return AddNoqaResult(source.text, 0, len(wanted))
    by_range: dict[tuple[int, int], set[str]] = {}
    for d in wanted:
        span = ranges.get(d.line)
        if span is None:
            continue
        by_range.setdefault(span, set()).add(d.code)
    edits: list[Edit] = []
    skipped = 0
    for (lo, hi), codes in sorted(by_range.items()):
        new = ", ".join(sorted(codes))
        existing = None
        for n in range(lo, hi + 1):
            m = NOQA.search(lines[n - 1])
            if m:
                existing = (n, m)
                break
        last = lines[hi - 1]
        if existing is None:
            end = len(last.rstrip())
            edits.append(Edit(Position(hi, end), Position(hi, len(last)), f"  # noqa: {new}"))
            continue
        n, m = existing
        comment = comments.get(n)
        if comment is None or m.start() < comment[0] or not m.group("codes"):
            skipped += 1  # the noqa text is inside a string (flake8 reads that one first)
            continue
        at = m.start("codes") + len(m.group("codes").rstrip(", \t"))
        edits.append(Edit(Position(n, at), Position(n, at), f", {new}"))
    return AddNoqaResult(source.apply(edits) if edits else source.text, len(edits), skipped)
