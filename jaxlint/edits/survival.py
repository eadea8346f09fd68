"""Did a fix remove its own finding? The fix loop's check that a round made progress.

A safe fix must remove the finding it was offered for. One that does not (an insertion on the
wrong line, a rewrite the rule flags again) would otherwise be applied again in every round of
the fixed-point loop and counted as "fixed" each time (ux-review-3 B2: ten copies of
`jax.block_until_ready(y)` and "Fixed 10 findings"). The loop re-lints after each round anyway;
this module maps each applied finding's position through the round's edits and looks for the
same finding (same code, same message up to line numbers, same place) in the new findings.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from jaxlint.core.diagnostic import Diagnostic, Edit
from jaxlint.core.source import SourceText

__all__ = ["map_offset", "surviving"]

_NUMBER = re.compile(r"\d+")


def map_offset(offset: int, edits: Iterable[tuple[int, int, str]]) -> int:
    """`offset` of the old text in the text after `edits` ((start, end, content) offsets of
    the old text, non-overlapping). An offset inside a replaced span maps to its start: the
    finding's text was rewritten there."""
    shift = 0
    for start, end, content in edits:
        if offset >= end:  # also an insertion at `offset`: the old text moves right
            shift += len(content) - (end - start)
        elif start <= offset:
            return start + shift
    return offset + shift


def _shape(message: str) -> str:
    return _NUMBER.sub("#", message)  # "consumed on line 12" survives a shift to line 13


def surviving(
    applied: list[Diagnostic], before: SourceText, after: SourceText, found: list[Diagnostic]
) -> list[Diagnostic]:
    """The findings of `applied` (whose fixes turned `before` into `after`) that `found` (the
    findings on `after`) still holds at their mapped position: fixes that did not do their job."""
    edits: list[Edit] = [e for d in applied if d.fix is not None for e in d.fix.edits]
    spans = sorted((before.offset(e.start), before.offset(e.end), e.content) for e in edits)
    index = {(d.code, _shape(d.message), after.offset(d.span.start)) for d in found}
    out = []
    for d in applied:
        where = map_offset(before.offset(d.span.start), spans)
        if (d.code, _shape(d.message), where) in index:
            out.append(d)
    return out
