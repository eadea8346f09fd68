"""The minimal reproductions of every false positive found on real user code.

Copied from shared/reports/realworld-fp/ (each file's docstring names the project and the lines it
was reduced from; every file runs cleanly on JAX 0.10.2). With the default selection and with
the preview rules added (`PREVIEW_ON`: a rule in preview must not regress on them either),
jaxlint must say nothing on them. `STILL_FIRING` lists the ones not fixed yet: they are strict xfails, so a fix
that silences one fails here until the name is removed from the list.
"""

from __future__ import annotations

import pathlib

import pytest

from jaxlint.core.config import Settings
from jaxlint.engine import LintOptions, lint_text

CASES = sorted((pathlib.Path(__file__).parent / "realworld").glob("fp*.py"))
PREVIEW_ON = Settings(preview=True)  # the default selection plus the rules in preview

STILL_FIRING: set[str] = set()

# reported as false positives once, judged true positives since (the code they must now get)
RECLASSIFIED: dict[str, str] = {
    # issue 24: the loop value `i` is data (a layer index): passed as an argument, one compile
    # serves every layer; a jit per layer compiles num_layers times (the JAX401 regression)
    "fp23_jax401_loop_var_in_nested_lambda": "JAX401",
}


def test_cases_exist():
    assert len(CASES) == 26
    assert STILL_FIRING <= {p.stem for p in CASES}
    assert set(RECLASSIFIED) <= {p.stem for p in CASES}


@pytest.mark.parametrize("stem", sorted(RECLASSIFIED))
def test_reclassified_case_is_reported(stem):
    path = next(p for p in CASES if p.stem == stem)
    text = path.read_text(encoding="utf-8")
    diags = lint_text(text, path.name, LintOptions(settings=PREVIEW_ON))
    assert [d.code for d in diags] == [RECLASSIFIED[stem]]


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(p, marks=pytest.mark.xfail(strict=True, reason="known FP, not fixed yet"))
        if p.stem in STILL_FIRING
        else p
        for p in CASES
        if p.stem not in RECLASSIFIED
    ],
    ids=[p.stem for p in CASES if p.stem not in RECLASSIFIED],
)
def test_realworld_false_positive_is_silent(path):
    text = path.read_text(encoding="utf-8")
    for settings in (Settings(), PREVIEW_ON):
        diags = lint_text(text, path.name, LintOptions(settings=settings))
        assert diags == [], "\n".join(f"{d.line}: {d.code} {d.message}" for d in diags)
