"""False positives found on real code (benchmarks/realcode.py), one file each in `cases/`.

Each case is a reduced copy of the code that was wrongly flagged, with the source named in
its docstring (`facts_near_misses.py` holds the near misses of the facts file, §4). The
default rules of the tracing, PRNG and mutation families, and the rules in preview, must stay
silent on it, except on lines marked `# error: JAXnnn` (true positives kept next to the near
miss).
"""

from __future__ import annotations

import pathlib

import pytest

from jaxlint.core.config import Settings
from jaxlint.engine import LintOptions, lint_text
from jaxlint.rules import ALL_RULES
from tests.test_rule_examples import MARK

CASES = sorted((pathlib.Path(__file__).parent / "cases").glob("*.py"))
# the families these cases were collected for (tracing, PRNG, compile, mutation, timing, dtypes;
# sharding and removed APIs for the version-guard cases), default selection plus the rules in
# preview (most of these false positives were fixed for a rule that is in preview now; an exact
# code list runs every confidence level)
FAMILIES = ("JAX1", "JAX2", "JAX3", "JAX4", "JAX5", "JAX6", "JAX7", "JAX8")
CODES = frozenset(
    c for c in Settings(preview=True).selected_codes(ALL_RULES) if c.startswith(FAMILIES)
)


def _marked(text: str) -> set[tuple[int, str]]:
    out = set()
    for i, line in enumerate(text.splitlines(), start=1):
        m = MARK.search(line)
        if m:
            out |= {(i, code) for code in m.group(1).replace(",", " ").split()}
    return out


def test_there_are_cases():
    assert len(CASES) >= 10


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_real_code_false_positive_stays_silent(path):
    text = path.read_text(encoding="utf-8")
    diags = lint_text(text, path.name, LintOptions(codes=CODES))
    got = {(d.line, d.code) for d in diags}
    assert got == _marked(text), "\n".join(f"{d.line}: {d.code} {d.message}" for d in diags)
