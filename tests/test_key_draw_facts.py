"""Each library fact of analysis/key_draw_facts.py with its programs: the example reports
its key reuse at high confidence on the marked line, the twin does not (no high-confidence
JAX201). JAX201 is in preview since the v15 check set, so both levels are asked with it."""

from __future__ import annotations

import pytest

from jaxlint.analysis.key_draw_facts import KEY_DRAW_FACTS, KEY_DRAWFREE_FACTS
from jaxlint.core.config import Settings
from jaxlint.engine import LintOptions, lint_text
from tests.test_rule_examples import MARK


def _jax201(text: str) -> set[int]:
    """The lines of the high-confidence JAX201 findings (a consumption proven to draw)."""
    diags = lint_text(text, "t.py", LintOptions(settings=Settings(preview=True)))
    return {d.line for d in diags if d.code == "JAX201" and d.confidence == "high"}


@pytest.mark.parametrize("fact", KEY_DRAW_FACTS, ids=[f"{f.what}:{f.name}" for f in KEY_DRAW_FACTS])
def test_fact_example_is_high_and_twin_is_not(fact):
    marked = {i for i, line in enumerate(fact.example.splitlines(), start=1) if MARK.search(line)}
    assert marked, "an example marks the line its reuse is reported on"
    assert _jax201(fact.example) == marked
    assert _jax201(fact.twin) == set()


# Program order of "draws on every path" is asked of the flow graph (flow/cfg.py
# `always_evaluated`, use-def map for "rebound first"): a helper that draws in a `with` body
# is proven; one that draws only in a `try` body (the handler may run
# instead), or from a key rebound on one branch first, is not.
_HELPER_CALLER = """
import jax

def helper(key, c):
{body}

def step(c):
    key = jax.random.PRNGKey(0)
    a = helper(key, c)
    b = helper(key, not c)
    return a + b
"""


@pytest.mark.parametrize(
    ("body", "proven"),
    [
        (
            "    with open('log') as f:\n        x = jax.random.normal(key, (2,))\n"
            "    assert x is not None, f\n    return x",
            True,
        ),
        ("    x = jax.random.normal(key, (2,))\n    return x", True),
        (
            "    try:\n        x = jax.random.normal(key, (2,))\n    except ValueError:\n"
            "        x = None\n    return x",
            False,
        ),
        (
            "    if c:\n        key = jax.random.PRNGKey(0)\n"
            "    x = jax.random.normal(key, (2,))\n    return x",
            False,
        ),
        ("    key, sub = jax.random.split(key)\n    return sub", True),
    ],
    ids=["with-body", "straight", "try-body", "rebound-on-a-branch", "split-rebinds-after"],
)
def test_helper_draws_on_every_path_by_the_flow_graph(body, proven):
    src = _HELPER_CALLER.format(body=body)
    second = next(i for i, line in enumerate(src.splitlines(), 1) if "b = helper" in line)
    assert (_jax201(src) == {second}) is proven


def _preview_jax201(text: str) -> set[int]:
    diags = lint_text(text, "t.py", LintOptions(settings=Settings(preview=True)))
    return {d.line for d in diags if d.code == "JAX201"}


@pytest.mark.parametrize("fact", KEY_DRAWFREE_FACTS, ids=[f.name for f in KEY_DRAWFREE_FACTS])
def test_drawfree_layer_example_is_silent_and_twin_fires(fact):
    assert _preview_jax201(fact.example) == set()
    marked = {i for i, line in enumerate(fact.twin.splitlines(), start=1) if MARK.search(line)}
    assert marked and _preview_jax201(fact.twin) == marked
