"""`jaxlint.api`, the facade every face calls (docs/api.md, issue 26).

In-process: what the faces rely on (the same findings as the engine, verify planning from
the lint's facts, one explain), without starting a CLI process.
"""

from __future__ import annotations

import argparse

import pytest

from jaxlint import api
from jaxlint.analysis import ModuleFacts, imports
from jaxlint.core.errors import UsageError
from jaxlint.engine import lint_text as engine_lint_text

REUSE = """\
import jax


def step(key):
    a = jax.random.normal(key, (3,))
    b = jax.random.normal(key, (3,))
    return a + b


@jax.jit
def f(x):
    return float(x)
"""


JITTED = """
@jax.jit
def f(x):
    return float(x)
"""


def _every_rule() -> api.LintOptions:
    from jaxlint.rules import ALL_RULES

    # an exact selection, whatever the default (the preview table may change it)
    return api.LintOptions(codes=frozenset(r.code for r in ALL_RULES))


def test_lint_text_and_analyse_text_are_the_engines_findings():
    expected = engine_lint_text(REUSE, "m.py", _every_rule())
    assert {d.code for d in expected} >= {"JAX201", "JAX101"}
    assert api.lint_text(REUSE, "m.py", _every_rule()) == expected
    analysis = api.analyse_text(REUSE, "m.py", _every_rule())
    assert analysis.diagnostics == expected
    assert isinstance(analysis.facts, ModuleFacts)
    assert api.analyse_text(REUSE, "m.py", _every_rule(), keep_facts=False).facts is None
    assert api.analyse_text("def f(:\n", "m.py").facts is None  # did not parse


def _count_analyses(monkeypatch) -> dict[str, int]:
    counts = {"facts": 0, "index": 0}
    facts_init, index_init = ModuleFacts.__init__, imports.ModuleIndex.__init__

    def facts(self, *a, **k):
        counts["facts"] += 1
        facts_init(self, *a, **k)

    def index(self, *a, **k):
        counts["index"] += 1
        index_init(self, *a, **k)

    monkeypatch.setattr(ModuleFacts, "__init__", facts)
    monkeypatch.setattr(imports.ModuleIndex, "__init__", index)
    return counts


def test_plan_verify_plans_from_the_lints_facts(monkeypatch):
    """The planner takes the lint's tree and facts: no second `ModuleFacts`, and the same
    jobs as a plan that analyses the module itself."""
    from jaxlint.rules import rules_by_code
    from jaxlint.verify.plan import plan_file

    analysis = api.analyse_text(REUSE, "m.py", _every_rule())
    diags = [d for d in analysis.diagnostics if d.code == "JAX101"]  # no fixed-code planning
    alone = plan_file("m.py", REUSE, diags, analysis.settings, rules_by_code(), with_fixes=False)
    counts = _count_analyses(monkeypatch)
    jobs = api.plan_verify(analysis, diags, with_fixes=False)
    assert counts == {"facts": 0, "index": 0}
    assert jobs == alone and len(jobs) == len(diags) == 1


def test_verify_driver_analyses_the_file_once(tmp_path, monkeypatch):
    """`jaxlint verify`'s driver: the lint builds the facts; checking the function and planning
    reuse them (before the facade: two `ModuleIndex` and two `ModuleFacts` builds more). No
    JAX201 here: its fix checks itself on the fixed text, an analysis of another text."""
    from jaxlint.verify import driver

    monkeypatch.setenv("JAXLINT_NO_PROJECT_INDEX", "1")
    path = tmp_path / "m.py"
    path.write_text(
        REUSE.split("@jax.jit")[0].replace("b = jax.random.normal(key", "b = (1") + JITTED
    )
    counts = _count_analyses(monkeypatch)
    analysis, diags, every = driver._findings_to_verify(
        str(path), function="f", args=None, config=None, select="JAX101", preview=True
    )
    jobs = api.plan_verify(analysis, diags, with_fixes=False, context=every)
    assert [d.code for d in diags] == ["JAX101"] and len(jobs) == 1
    assert counts == {"facts": 1, "index": 1}


def test_run_options_copy_the_cli_flags():
    args = argparse.Namespace(paths=["a"], jobs=None, no_cache=True, format="json", other=1)
    run = api.RunOptions.from_namespace(args)
    assert run == api.RunOptions(paths=["a"], no_cache=True, format="json")


def test_project_seeds_off_by_the_environment(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "helpers.py").write_text(
        "import jax\n\n\ndef noise(key):\n    return jax.random.normal(key)\n"
    )
    user = tmp_path / "user.py"
    user.write_text("from helpers import noise\n\n\ndef f(key):\n    return noise(key)\n")
    settings = api.ConfigResolver().for_path(str(user))
    assert api.tree_root(str(user)) == str(tmp_path)
    monkeypatch.setenv("JAXLINT_NO_PROJECT_INDEX", "1")
    assert api.project_seeds(str(user), settings) is None
    assert api.project_seeds(str(user), settings, enabled=True)  # the key helper's seed


def test_explain_by_code_number_or_name_and_a_hint_for_a_typo():
    text = api.explain("JAX101")
    assert api.explain("101") == text == api.explain("host-conversion-of-traced-value")
    assert api.explain("jax000").startswith("JAX000 (internal-error)")
    with pytest.raises(UsageError, match="did you mean `host-conversion-of-traced-value`"):
        api.explain("host-conversion-of-traced-valeu")


def test_rule_rows_list_every_rule():
    from jaxlint.rules import ALL_RULES

    rows = api.rule_rows()
    assert [r["code"] for r in rows] == [r.code for r in ALL_RULES]
    assert set(rows[0]) == set(api.RuleRow.__annotations__)


def test_function_ref_validates_without_importing(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("raise SystemExit('imported')\n")
    assert api.function_ref(f"{path}::f") == f"{path.resolve()}::f"
    with pytest.raises(UsageError, match="no such file"):
        api.function_ref(f"{tmp_path / 'missing.py'}::f")
