"""The code table (core/codes.py) and the rule registry agree, and the registry says so loudly
when they do not."""

from __future__ import annotations

import pytest

from jaxlint.core import codes
from jaxlint.core.config import parse_codes_arg
from jaxlint.rules import ALL_RULES, get_rule, registry, rules_by_code


def test_every_rule_is_its_table_row():
    rows = {(c.code, c.name, c.family, c.cls) for c in codes.CODES}
    found = {(r.code, r.name, r.__module__.split(".")[2], r.__name__) for r in ALL_RULES}
    assert found == rows
    assert list(rules_by_code()) == sorted(c.code for c in codes.CODES)
    assert get_rule("jax201") is get_rule("prng-key-reuse") is rules_by_code()["JAX201"]


def test_an_unlisted_rule_fails_the_registry(monkeypatch):
    monkeypatch.setattr(registry, "CODES", codes.CODES[1:])
    with pytest.raises(registry.RegistryError, match=codes.CODES[0].cls):
        registry.collect()


def test_a_listed_rule_that_is_gone_fails_the_registry(monkeypatch):
    ghost = codes.Code("JAX199", "ghost", "tracing", "GhostRule")
    monkeypatch.setattr(registry, "CODES", (*codes.CODES, ghost))
    with pytest.raises(registry.RegistryError, match="GhostRule"):
        registry.collect()


def test_selectors_are_checked_against_the_table(capsys):
    parse_codes_arg("JAX20,JAX999", "--select")
    err = capsys.readouterr().err
    assert "JAX999" in err and "JAX20`" not in err


def test_verify_rejects_unknown_option_values():
    """The runtime kinds fall back to their default on a value they do not know, so a typo in
    a rule's `Verify(compare=...)` would silently verify the wrong thing."""
    import pytest

    from jaxlint.rules.base import COMPARES, OBSERVE_CONFIRMS, Verify

    with pytest.raises(ValueError, match="compare"):
        Verify(compare="pmapp")
    with pytest.raises(ValueError, match="observe_confirms"):
        Verify(observe_confirms="traced")
    for value in COMPARES:
        Verify(compare=value)
    for value in OBSERVE_CONFIRMS:
        Verify(observe_confirms=value)


def test_verify_option_values_are_the_runtime_tables():
    """`Verify` accepts exactly the values the runtime kinds implement (their modules import no
    JAX at module level), so neither side can gain a spelling the other lacks."""
    from jaxlint.rules.base import COMPARES, OBSERVE_CONFIRMS
    from jaxlint.runtime.kinds import numeric, trace

    assert set(COMPARES) - {None} == set(numeric.COMPARES)
    assert set(OBSERVE_CONFIRMS) - {None} == set(trace.OBSERVED)


@pytest.mark.parametrize(
    "settings",
    [
        {},
        {"preview": True},
        {"select": ("ALL",)},
        {"select": ("ALL",), "preview": True},
        {"extend_select": ("JAX001", "JAX205")},
        {"ignore": ("JAX2", "JAX801")},
        {"cli_select": ("JAX1",), "cli_extend_select": ("JAX406",), "preview": True},
    ],
    ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()) or "defaults",
)
def test_selected_codes_from_the_table_match_the_rule_classes(settings):
    """A warm run computes its cache salt from the code table alone (`OPT_IN`, no rule
    imported); it must select exactly what the rule classes' `default` flags select."""
    from jaxlint.core.config import Settings
    from jaxlint.options import LintOptions

    options = LintOptions(settings=Settings(**settings))
    assert options.selected_codes() == frozenset(r.code for r in options.selected())
    exact = LintOptions(codes=frozenset({"JAX101", "JAX999"}))
    assert exact.selected_codes() == frozenset({"JAX101"})


def test_a_cache_hit_run_imports_no_rule(tmp_path):
    """Everything a run whose files are all cache hits needs (the facade, the pool's cache
    path, the salts) imports neither the engine nor the rules: a warm run of a large project
    is mostly its start-up."""
    import subprocess
    import sys

    code = (
        "import sys; import jaxlint.api, jaxlint.commands, jaxlint.run.parallel; "
        "from jaxlint.options import LintOptions; from jaxlint.run.parallel import Salts; "
        "Salts()(LintOptions(), 'm.py'); "
        "print(sorted(m for m in sys.modules if m in ('jaxlint.engine', 'jaxlint.rules', "
        "'jaxlint.incremental')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
