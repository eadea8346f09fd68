"""Linting and fixing cost grow linearly with the findings of one file (issue 26).

JAX201 offers its fix only when the key analysis of the fixed code is clean; that check
re-parses and re-analyses the module, and it used to run once per finding, fixes were built
even for a plain `check`: 4x the findings cost 20x the CPU. Now fixes are lazy and a module's
JAX201 fixes are checked together. Measured in CPU time (the machine may be shared), with
generous bounds; the count of key analyses is exact.
"""

from __future__ import annotations

import time

import pytest

from benchmarks.fix_scaling import repeated
from jaxlint.analysis.flow import keys as keys_module
from jaxlint.core.config import Settings
from jaxlint.engine import LintOptions, fix_text, lint_text

SMALL, LARGE = 4, 16  # copies of examples/train_step.py, functions renamed per copy
# the cost of the whole rule set, the preview rules included (JAX101, JAX601, ... of this file)
EVERY_RULE = LintOptions(settings=Settings(preview=True))


def _cpu(fn, repeat: int = 3) -> float:  # noqa: ANN001
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


@pytest.fixture(scope="module")
def texts() -> tuple[str, str]:
    lint_text(repeated(1), "warm.py", LintOptions())  # imports and rule tables
    return repeated(SMALL), repeated(LARGE)


def test_four_times_the_findings_costs_at_most_six_times_the_cpu(texts):
    small, large = texts
    n_small = len(lint_text(small, "a.py", EVERY_RULE))
    n_large = len(lint_text(large, "a.py", EVERY_RULE))
    assert n_large == 4 * n_small and n_small > 30
    t_small = _cpu(lambda: lint_text(small, "a.py", EVERY_RULE))
    t_large = _cpu(lambda: lint_text(large, "a.py", EVERY_RULE))
    assert t_large <= 6 * t_small, (t_small, t_large)


def test_fixing_four_times_the_findings_costs_at_most_six_times_the_cpu(texts):
    small, large = texts
    t_small = _cpu(lambda: fix_text(small, "a.py", EVERY_RULE, unsafe=True), repeat=2)
    t_large = _cpu(lambda: fix_text(large, "a.py", EVERY_RULE, unsafe=True), repeat=2)
    assert t_large <= 6 * t_small, (t_small, t_large)


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
    lazy = lint_text(small, "a.py", LintOptions(lazy_fixes=True))
    assert any(d.code == "JAX201" and d.fix is not None for d in lazy)
    assert not any(d.fix is not None and d.fix.built for d in lazy if d.code == "JAX201")
    decided = lint_text(small, "a.py", LintOptions())
    for d in decided:
        if d.code == "JAX201" and d.fix is not None:
            assert d.fix.built and d.fix.edits
