"""The traced-function table (analysis/traced.py): one writer, a fixed pipeline, frozen rows."""

from __future__ import annotations

import ast
import dataclasses
import re
import textwrap
from pathlib import Path

import pytest

from jaxlint.analysis import ModuleFacts, TracedKind

SRC = textwrap.dedent(
    """
    import jax
    import jax.numpy as jnp

    def helper(y, n):
        return y * n

    @jax.jit
    def step(x):
        return helper(x, 3)

    @jax.jit
    def outer(p):
        return jax.grad(inner)(p)

    def inner(p):
        return p.sum()
    """
)


def _facts() -> ModuleFacts:
    return ModuleFacts(ast.parse(SRC))


def _fn(facts: ModuleFacts, name: str) -> ast.AST:
    return next(f for f in facts.index.functions if getattr(f, "name", "") == name)


def test_entries_need_no_flow_analysis() -> None:
    facts = _facts()
    entries = facts.traced.entries
    assert _fn(facts, "step") in entries
    assert _fn(facts, "helper") not in entries  # a helper is found by the fixed point
    assert "_solved" not in vars(facts.traced)  # the taint analysis has not run


def test_helpers_join_the_final_table_with_a_chain() -> None:
    facts = _facts()
    row = facts.function_facts(_fn(facts, "helper"))
    assert row is not None and row.kind is TracedKind.JIT and row.confidence == "medium"
    assert row.chain == ("step", "helper") and row.traced_params == {"y"}
    assert row.static_params == {"n"}  # the caller passes a Python int
    # grad applied inside a jitted function: its primals are abstract too (step 5 upgrades)
    inner = facts.function_facts(_fn(facts, "inner"))
    assert inner is not None and inner.is_jit and inner.chain == ("outer", "inner")
    assert facts.traced.entries[_fn(facts, "inner")].kind is TracedKind.GRAD


def test_rows_are_frozen() -> None:
    facts = _facts()
    row = facts.function_facts(_fn(facts, "step"))
    assert row is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        row.kind = TracedKind.GRAD  # type: ignore[misc]
    with pytest.raises(AttributeError):
        row.traced_params.add("x")  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        facts.traced.table[row.node] = row  # type: ignore[index]


def test_no_fact_is_finished_by_a_side_effect_read() -> None:
    """`x.taint  # noqa: B018` made the table final by running taint for its side effect;
    the pipeline now runs it where its result is needed. Nothing in the facts layer reads a
    property only for its side effect, and nothing anywhere forces taint that way."""
    root = Path(__file__).resolve().parents[1] / "jaxlint"
    side_effect = re.compile(r"noqa: B018")
    for path in root.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for n, line in enumerate(text.splitlines(), 1):
            if not side_effect.search(line):
                continue
            where = f"{path.relative_to(root)}:{n}: {line.strip()}"
            assert "analysis" not in path.relative_to(root).parts, where
            assert ".taint" not in line and ".traced" not in line, where
