"""Each library fact of analysis/key_draw_facts.py with its programs: the example reports
its key reuse at high confidence (the default selection finds it on the marked line), the
twin does not (no JAX201 in the default selection)."""

from __future__ import annotations

import pytest

from jaxlint.analysis.key_draw_facts import KEY_DRAW_FACTS
from jaxlint.core.config import Settings
from jaxlint.engine import LintOptions, lint_text
from tests.test_rule_examples import MARK


def _jax201(text: str) -> set[int]:
    diags = lint_text(text, "t.py", LintOptions(settings=Settings()))
    return {d.line for d in diags if d.code == "JAX201"}


@pytest.mark.parametrize("fact", KEY_DRAW_FACTS, ids=[f"{f.what}:{f.name}" for f in KEY_DRAW_FACTS])
def test_fact_example_is_high_and_twin_is_not(fact):
    marked = {i for i, line in enumerate(fact.example.splitlines(), start=1) if MARK.search(line)}
    assert marked, "an example marks the line its reuse is reported on"
    assert _jax201(fact.example) == marked
    assert _jax201(fact.twin) == set()
