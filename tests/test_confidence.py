"""Confidence on every diagnostic (issue 13, item 9): high for facts read from the code itself,
medium for facts carried through a helper call or a Module's `__call__`; carried in JSON and
SARIF, and filtered by `--min-confidence` / `min-confidence`."""

from __future__ import annotations

import json

from jaxlint.core.config import Settings
from jaxlint.engine import LintOptions, fix_text, lint_text
from tests.conftest import snippet

CODE = snippet(
    """
    import jax
    import numpy as np

    def helper(v):
        return np.sin(v)

    @jax.jit
    def f(x):
        return helper(x) + np.cos(x)
    """
)


# JAX101 and JAX110's medium findings are in preview (docs/precision.md, "Fresh corpus v3"):
# these tests are about confidence levels, so they run with preview on
def _lint(text: str, **options: object) -> list:
    settings = Settings(options=tuple(options.items()), preview=True)
    return lint_text(text, "a.py", LintOptions(settings=settings))


def test_direct_parameter_is_high_helper_is_medium():
    got = {(d.line, d.confidence) for d in _lint(CODE)}
    assert got == {(5, "medium"), (9, "high")}


def test_module_call_is_medium_and_syntax_rules_stay_high():
    text = snippet(
        """
        import flax.linen as nn
        import jax

        class M(nn.Module):
            def __call__(self, x):
                if x.sum() > 0:
                    x = -x
                return jax.tree_map(lambda v: v, x)
        """
    )
    got = {(d.code, d.confidence) for d in _lint(text)}
    assert ("JAX110", "medium") in got
    assert ("JAX801", "high") in got  # a deprecation does not rest on tracing facts


def test_min_confidence_filters_findings_and_fixes():
    assert [d.line for d in _lint(CODE, **{"min-confidence": "high"})] == [9]
    settings = Settings(options=(("min-confidence", "high"),), preview=True)
    fixed = fix_text(CODE, "a.py", LintOptions(settings=settings))
    assert "np.sin(v)" in fixed.text and "jnp.cos(x)" in fixed.text


def test_cli_json_sarif_and_flag(run_cli, tmp_path):
    (tmp_path / "a.py").write_text(CODE)
    proc = run_cli("check", "--no-cache", "--preview", "--format", "json", "a.py")
    rows = json.loads(proc.stdout)
    assert sorted(r["confidence"] for r in rows) == ["high", "medium"]
    proc = run_cli("check", "--no-cache", "--preview", "--format", "sarif", "a.py")
    results = json.loads(proc.stdout)["runs"][0]["results"]
    assert sorted((r["properties"]["confidence"], r["rank"]) for r in results) == [
        ("high", 90.0),
        ("medium", 60.0),
    ]
    proc = run_cli(
        "check", "--no-cache", "--preview", "--min-confidence", "high", "--format", "json", "a.py"
    )
    assert [r["location"]["row"] for r in json.loads(proc.stdout)] == [9]


def test_config_key(run_cli, tmp_path):
    (tmp_path / "a.py").write_text(CODE)
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint]\nmin-confidence = "high"\n')
    proc = run_cli("check", "--no-cache", "--preview", "--format", "json", "a.py")
    assert [r["location"]["row"] for r in json.loads(proc.stdout)] == [9]
    # the flag wins over the file
    proc = run_cli(
        "check", "--no-cache", "--preview", "--min-confidence", "medium", "--format", "json", "a.py"
    )
    assert len(json.loads(proc.stdout)) == 2
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint]\nmin-confidence = "low"\n')
    proc = run_cli("check", "--no-cache", "--preview", "a.py")
    assert "min-confidence" in proc.stderr
