"""Which fixes one round applies (`engine._non_overlapping`): the fixes whose edits touch
disjoint text, in the order of their spans. The sorted check (a bisection per edit) must
choose exactly what the scan of every span taken chose, which made a round of 500 fixes
quadratic (benchmarks/fix_scaling.py): compared on random fixes, insertions, shared ends and
fixes whose own edits clash included."""

from __future__ import annotations

import random

from jaxlint import engine
from jaxlint.core.diagnostic import Diagnostic, Edit, Fix, Position, Span


def _scan(fixes: list[Diagnostic]) -> list[Diagnostic]:
    """The round as it was decided before: each edit against every span taken."""
    chosen, taken = [], []
    for d in sorted(fixes, key=lambda d: d.fix.span):
        spans = [(e.start, e.end) for e in d.fix.edits]
        if any(engine._clash(x, y) for x in spans for y in taken):
            continue
        chosen.append(d)
        taken.extend(spans)
    return chosen


def _fix(rng: random.Random, i: int) -> Diagnostic:
    edits = []
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        line = rng.randint(1, 6)
        col = rng.randint(0, 8)
        width = rng.choice((0, 0, 1, 2, 5))  # insertions are common (imports, splits)
        end_line, end_col = (line, col + width) if rng.random() < 0.8 else (line + 1, 0)
        edits.append(Edit(Position(line, col), Position(end_line, end_col), f"e{i}"))
    return Diagnostic(
        code="JAX201",
        message=f"m{i}",
        path="x.py",
        span=Span.of(1, 0, 1, 1),
        name="n",
        fix=Fix(tuple(edits), "safe", "f"),
    )


def test_sorted_round_chooses_what_the_scan_chose():
    rng = random.Random(26)
    for trial in range(400):
        fixes = [_fix(rng, i) for i in range(rng.randint(1, 25))]
        assert engine._non_overlapping(fixes) == _scan(fixes), trial


def test_two_insertions_at_one_point_wait_for_the_next_round():
    a, b = (
        Diagnostic(
            code="JAX201",
            message=m,
            path="x.py",
            span=Span.of(1, 0, 1, 1),
            name="n",
            fix=Fix((Edit(Position(2, 4), Position(2, 4), m),), "safe", "f"),
        )
        for m in ("a", "b")
    )
    assert engine._non_overlapping([a, b]) == [a]
