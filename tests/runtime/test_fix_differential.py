"""Differential testing of fixes: for every rule with a fix and a runtime verifier, each
`(before, after)` fix example is verified on both sides.

- the finding in `before` is confirmed by the rule's verifier (else: skipped, with the reason);
- `after` (the example's own fixed code) no longer fails that verifier;
- where the original can run (as written, or eagerly when the sharp bit only bites under jit),
  `after` computes the same results (`np.allclose`) - except for verifier kinds whose fix changes
  the values on purpose (new PRNG keys, timings).

The registry is iterated, so new rules are covered automatically. All examples run in one batch.
"""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

pytestmark = pytest.mark.jax
pytest.importorskip("jax")

from jaxlint.verify.driver import verify_jobs  # noqa: E402
from jaxlint.verify.plan import kinds_for  # noqa: E402
from tests.runtime.test_verify_examples import (  # noqa: E402
    PARALLEL,
    computed_once,
    plan_example,
    verifiable_rules,
)

# (code, "fixes" | "unsafe_fixes", a snippet of `before`) -> inputs, as in test_verify_examples
TABLE: dict[tuple[str, str, str], dict[str, Any]] = {
    ("JAX103", "unsafe_fixes", "{x:.3f}"): {"args": {"f": "f32[]"}},  # "{:.3f}" needs a scalar
    ("JAX110", "fixes", "x > 0 and y < 1"): {"args": {"f": "f32[], f32[]"}},  # runs eagerly
    ("JAX121", "unsafe_fixes", "jnp.nonzero(x > 0)"): {
        "results_differ": "size= pads the result with fill_value"
    },
    ("JAX301", "unsafe_fixes", "(x @ w) ** 2"): {"args": {"step": "f32[8,4], f32[8,3,4]"}},
    ("JAX306", "fixes", "x.sharding.spec"): {
        "skip": "needs an array with a NamedSharding (the spec syntax has none)"
    },
    ("JAX401", "fixes", "loss_fn(p, b))(params, batch)"): {"args": {"train": "f32[4], f32[3,4]"}},
    ("JAX401", "fixes", "scaled(v, s)"): {"args": {"run": "f32[3], 2.0, 2"}},
    ("JAX401", "unsafe_fixes", 'cfg["scale"]'): {"args": {"run": "f32[2,3], ={'scale': 2.0}"}},
    ("JAX407", "fixes", "batch_list: list"): {
        "args": {"train": "f32[], [[1.0, 2.0], [3.0, 4.0]], 3"}
    },
    ("JAX501", "unsafe_fixes", "y[idx] += 1"): {"args": {"f": "2"}},
    ("JAX601", "fixes", "jax.jit(lambda x: x + 1)"): {"args": {"bench": "f32[1024,1024]"}},
    # `cfg.n` of zeros: the guarded division is on its singular point
    ("JAX704", "unsafe_fixes", "def loss(x, cfg)"): {
        "args": {"loss": "f32[8], =__import__('types').SimpleNamespace(n=jax.numpy.zeros(8))"}
    },
    ("JAX602", "unsafe_fixes", "def bench(fn, x)"): {
        "args": {"bench": "=jax.numpy.sin, f32[1024]"}
    },
}


def row_for(code: str, field: str, before: str) -> dict[str, Any]:
    for (c, f, snippet), row in TABLE.items():
        if c == code and f == field and snippet in before:
            return row
    return {}


# kinds whose fix changes the computed values by design: results are not compared
VALUES_CHANGE = {"keycheck", "draws", "retrace-cmp", "bench"}


def fix_cases() -> list[tuple[str, str, int]]:
    cases = []
    for rule in verifiable_rules(max_tier=3):
        for field in ("fixes", "unsafe_fixes"):
            for i, _ in enumerate(getattr(rule.examples, field)):
                cases.append((rule.code, field, i))
    return cases


CASES = fix_cases()


def _verify_fixes(root: str) -> list[list[dict[str, Any]]]:
    rules = {r.code: r for r in verifiable_rules(max_tier=3)}
    batches = []
    for code, field, i in CASES:
        before, after = getattr(rules[code].examples, field)[i]
        before = textwrap.dedent(before).lstrip("\n")
        after = textwrap.dedent(after).lstrip("\n")
        jobs = plan_example(root, code, f"{code}_{field}_{i}", before, row_for(code, field, before))
        for job in jobs:
            # verify the example's own `after`: the whole file as the fix loop leaves it
            job["fix"] = {"text": after, "safety": "unsafe" if field == "unsafe_fixes" else "safe"}
        batches.append(jobs)
    reports, _env = verify_jobs(batches, timeout=90, parallel=PARALLEL)
    return reports


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str, int], Any]:
    reports = computed_once(tmp_path_factory, "verify-fixes", _verify_fixes)
    return dict(zip(CASES, reports))


def test_some_fix_examples_exist() -> None:
    assert CASES, "no rule has both a fix example and a verifier"


@pytest.mark.parametrize(
    ("code", "field", "index"), CASES, ids=[f"{c}-{f}-{i}" for c, f, i in CASES]
)
def test_fix_removes_the_problem_and_keeps_results(
    outcomes: dict[tuple[str, str, int], Any], code: str, field: str, index: int
) -> None:
    rules = {r.code: r for r in verifiable_rules(max_tier=3)}
    before = textwrap.dedent(getattr(rules[code].examples, field)[index][0])
    row = row_for(code, field, before)
    if row.get("skip"):
        pytest.skip(row["skip"])
    findings = outcomes[(code, field, index)]
    if not findings:
        pytest.skip("the `before` code is not flagged when only this rule is selected")
    shown = "\n".join(f"  line {f['line']}: {f['verdict']}: {f['reason']}" for f in findings)
    confirmed = [f for f in findings if f["verdict"] == "confirmed"]
    if not confirmed:
        if any("an input" in f["reason"] for f in findings):
            pytest.skip(f"needs inputs the guesser cannot infer; add a TABLE row:\n{shown}")
        pytest.fail(f"the original is not confirmed by its verifier:\n{shown}")
    for finding in confirmed:
        fix = finding["evidence"].get("fix")
        assert fix is not None, f"no fix check ran:\n{shown}"
        after = fix.get("verdict")
        if after == "could-not-run":
            reasons = {k: v.get("reason") for k, v in fix.items() if isinstance(v, dict)}
            pytest.skip(f"the fixed code could not be checked: {reasons}")
        assert after == "not-reproduced", f"the fixed code still fails the verifier: {fix}"
        kinds = set(finding["verifier"].split("+"))
        results = fix.get("results") or {}
        if kinds & VALUES_CHANGE or not results.get("compared") or row.get("results_differ"):
            continue  # values change by design, or the original cannot run at all
        assert results["outputs_match"], f"the fix changes the results: {results}"


def test_kinds_for_every_fixable_rule() -> None:
    for rule in verifiable_rules(max_tier=3):
        if rule.examples.fixes or rule.examples.unsafe_fixes:
            assert kinds_for(rule), rule.code
