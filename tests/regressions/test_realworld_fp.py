"""The minimal reproductions of every false positive found on real user code.

Copied from shared/reports/realworld-fp/ (each file's docstring names the project and the lines it
was reduced from; every file runs cleanly on JAX 0.10.2). With the default selection, jaxlint must
say nothing on them. `STILL_FIRING` lists the ones not fixed yet: they are strict xfails, so a fix
that silences one fails here until the name is removed from the list.
"""

from __future__ import annotations

import pathlib

import pytest

from jaxlint.config import Settings
from jaxlint.engine import LintOptions, lint_text

CASES = sorted((pathlib.Path(__file__).parent / "realworld").glob("fp*.py"))

STILL_FIRING = {
    "fp01_jax601_nested_def_between_clocks",
    "fp02_jax601_assert_syncs",
    "fp03_jax601_np_function_syncs",
    "fp07_jax502_functional_insert",
    "fp08_jax201_same_key_aligned_choice",
    "fp09_jax203_foldin_index_past_split",
    "fp10_jax501_dict_from_pmean",
    "fp11_jax503_functional_update_method",
    "fp12_jax503_global_rebound_before_def",
    "fp16_jax701_runtime_x64_guard",
    "fp17_jax701_x64_from_test_environment",
    # December 2026 review of 15 more repositories (docs/precision.md):
    "fp18_jax201_dead_first_split",
    "fp19_jax201_duplicated_split_line",
    "fp20_jax601_input_of_blocked_result",
    "fp21_jax601_fstring_syncs",
    "fp22_jax407_constant_in_traced_loop",
    "fp23_jax401_loop_var_in_nested_lambda",
}


def test_cases_exist():
    assert len(CASES) == 23
    assert STILL_FIRING <= {p.stem for p in CASES}


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(p, marks=pytest.mark.xfail(strict=True, reason="known FP, not fixed yet"))
        if p.stem in STILL_FIRING
        else p
        for p in CASES
    ],
    ids=[p.stem for p in CASES],
)
def test_realworld_false_positive_is_silent(path):
    text = path.read_text(encoding="utf-8")
    diags = lint_text(text, path.name, LintOptions(settings=Settings()))
    assert diags == [], "\n".join(f"{d.line}: {d.code} {d.message}" for d in diags)
