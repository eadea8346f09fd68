"""Linting and fixing cost grow linearly with the findings of one file (issue 26).

JAX201 offers its fix only when the key analysis of the fixed code is clean; that check
re-parses and re-analyses the module, and it used to run once per finding, fixes were built
even for a plain `check`: 4x the findings cost 20x the CPU. Now fixes are lazy and a module's
JAX201 fixes are checked together. The tests count the work that used to repeat per finding
(parses, key analyses, lint rounds), which is exact; the CPU ratios are measured by
`benchmarks/fix_scaling.py` (a timed test failed when CI's background installs shared the
two cores: speed goals live in benchmarks/, not in tests).
"""

from __future__ import annotations

import ast

import pytest

from benchmarks.fix_scaling import repeated
from jaxlint import engine
from jaxlint.analysis.flow import keys as keys_module
from jaxlint.core.config import Settings
from jaxlint.engine import LintOptions, fix_text, lint_text

SMALL, LARGE = 4, 16  # copies of examples/train_step.py, functions renamed per copy
# the cost of the whole rule set, the preview rules included (JAX101, JAX601, ... of this file)
EVERY_RULE = LintOptions(settings=Settings(preview=True))


class _Counts:
    """How often the per-module work runs while `fn` lints or fixes a text."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.parses = self.key_flows = self.lints = 0
        real_parse, real_flow, real_lint = ast.parse, keys_module.KeyFlow.__init__, engine.lint_text

        def parse(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            self.parses += 1
            return real_parse(*args, **kwargs)

        def flow(flow_self, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
            self.key_flows += 1
            real_flow(flow_self, *args, **kwargs)

        def lint(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            self.lints += 1
            return real_lint(*args, **kwargs)

        monkeypatch.setattr(ast, "parse", parse)
        monkeypatch.setattr(keys_module.KeyFlow, "__init__", flow)
        monkeypatch.setattr(engine, "lint_text", lint)

    def snapshot(self) -> tuple[int, int, int]:
        return self.parses, self.key_flows, self.lints


@pytest.fixture(scope="module")
def texts() -> tuple[str, str]:
    # imports and the tables of the rules measured (JAX201 is in preview since v26)
    lint_text(repeated(1), "warm.py", EVERY_RULE)
    return repeated(SMALL), repeated(LARGE)


def test_four_times_the_findings_repeat_no_per_module_work(texts, monkeypatch):
    small, large = texts
    counts = _Counts(monkeypatch)
    n_small = len(lint_text(small, "a.py", EVERY_RULE))
    after_small = counts.snapshot()
    n_large = len(lint_text(large, "a.py", EVERY_RULE))
    after_large = counts.snapshot()
    assert n_large == 4 * n_small and n_small > 30
    assert after_small[0] >= 1 and after_small[1] >= 1  # the counters do count
    assert tuple(b - a for a, b in zip(after_small, after_large)) == after_small


def test_fixing_four_times_the_findings_takes_the_same_rounds(texts, monkeypatch):
    small, large = texts
    counts = _Counts(monkeypatch)
    fixed_small = fix_text(small, "a.py", EVERY_RULE, unsafe=True)
    after_small = counts.snapshot()
    fixed_large = fix_text(large, "a.py", EVERY_RULE, unsafe=True)
    after_large = counts.snapshot()
    assert len(fixed_large.fixed) == 4 * len(fixed_small.fixed) > 20
    assert after_small[2] >= 2  # a round and the final lint at least
    assert tuple(b - a for a, b in zip(after_small, after_large)) == after_small


def test_a_modules_jax201_fixes_are_checked_by_one_key_analysis(texts, monkeypatch):
    """The lint's own key analysis plus one round for every fix (each copy's fixes are in
    their own functions), however many JAX201 findings there are."""
    _, large = texts
    made = []
    real = keys_module.KeyFlow.__init__

    def counting(self, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        made.append(1)
        real(self, *args, **kwargs)

    monkeypatch.setattr(keys_module.KeyFlow, "__init__", counting)
    # every rule: half of the JAX201 findings go through a helper (medium, in preview)
    diags = lint_text(large, "a.py", EVERY_RULE)
    jax201 = [d for d in diags if d.code == "JAX201"]
    assert len(jax201) == 2 * LARGE
    assert all(d.fix is not None for d in jax201)  # each one's fix is clean
    assert len(made) == 2


def test_check_decides_fixes_without_building_the_edits_of_certain_ones(texts):
    """Only JAX201's fixes (uncertain: decided by the check above) are built by a lint;
    with `lazy_fixes` (the editor's diagnostics, flake8) not even those."""
    small, _ = texts
    lazy = lint_text(small, "a.py", LintOptions(settings=Settings(preview=True), lazy_fixes=True))
    assert any(d.code == "JAX201" and d.fix is not None for d in lazy)
    assert not any(d.fix is not None and d.fix.built for d in lazy if d.code == "JAX201")
    decided = lint_text(small, "a.py", EVERY_RULE)
    for d in decided:
        if d.code == "JAX201" and d.fix is not None:
            assert d.fix.built and d.fix.edits


def test_def_use_questions_ask_the_scope_not_the_module(texts, monkeypatch):
    """Which loads see a binding (deadness.loads_of_binding, _nested_reads) and which loads
    read a name only for its shape (shape_only) are asked of the binding's own scope:
    asking every same-named load of the module made each question grow with the module
    (4x the copies cost 12x the graph-owner questions and 5x the lookups; now exactly 4x)."""
    from jaxlint.analysis import imports
    from jaxlint.analysis.flow import graph

    small, large = texts
    counts = {"owner": 0, "lookup": 0}
    real_owner, real_lookup = graph.FlowGraphs.owner, imports.ModuleIndex.lookup

    def owner(self, node):  # noqa: ANN001, ANN202
        counts["owner"] += 1
        return real_owner(self, node)

    def lookup(self, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        counts["lookup"] += 1
        return real_lookup(self, *args, **kwargs)

    monkeypatch.setattr(graph.FlowGraphs, "owner", owner)
    monkeypatch.setattr(imports.ModuleIndex, "lookup", lookup)
    lint_text(small, "a.py", EVERY_RULE)
    at_small = dict(counts)
    lint_text(large, "a.py", EVERY_RULE)
    grown = {k: counts[k] - at_small[k] for k in counts}
    assert at_small["owner"] > 50 and at_small["lookup"] > 200  # the counters do count
    assert grown == {k: 4 * v for k, v in at_small.items()}
