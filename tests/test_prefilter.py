"""The text prefilter never hides a finding: every example snippet of every rule gives the
same diagnostics with and without it, with every rule selected."""

from __future__ import annotations

import pytest

from jaxlint import prefilter
from jaxlint.core.config import Settings
from jaxlint.engine import LintOptions, lint_text
from jaxlint.rules import ALL_RULES, Examples, Rule
from tests.conftest import snippet

ALL_CODES = frozenset(r.code for r in ALL_RULES)


def _texts(examples: Examples):
    yield from examples.invalid
    yield from examples.valid
    for before, after in (*examples.fixes, *examples.unsafe_fixes):
        yield before
        yield after


def _cases():
    for rule in ALL_RULES:
        for i, text in enumerate(_texts(rule.examples)):
            yield pytest.param(snippet(text), id=f"{rule.code}-{i}")


def _lint(text: str, monkeypatch, enabled: bool, settings: Settings | None = None) -> list:
    monkeypatch.setattr(prefilter, "DISABLED", not enabled)
    options = LintOptions(settings=settings or Settings(), codes=ALL_CODES)
    # internal errors of a rule are that rule's business, not the prefilter's
    return [d for d in lint_text(text, "example.py", options) if d.code != "JAX000"]


@pytest.mark.parametrize("text", list(_cases()))
def test_examples_lint_the_same_with_and_without_prefilter(text, monkeypatch):
    full = _lint(text, monkeypatch, enabled=False)
    kept = {r.code for r in prefilter.applicable(text, ALL_RULES, Settings())}
    dropped = {d.code for d in full} - kept
    assert not dropped, (
        f"the prefilter skips {sorted(dropped)} on a file where they fire; "
        "give the rule a `prefilter_words` that its names contain"
    )
    assert _lint(text, monkeypatch, enabled=True) == full


def test_every_invalid_example_passes_its_own_rules_gate():
    for rule in ALL_RULES:
        for text in rule.examples.invalid:
            assert prefilter.applicable(snippet(text), [rule], Settings()) == [rule], rule.code


def test_file_without_jax_names_is_parsed_but_not_analysed(monkeypatch):
    calls = []
    import jaxlint.engine as engine

    real = engine.run_rules
    monkeypatch.setattr(engine, "run_rules", lambda *a, **k: calls.append(a) or real(*a, **k))
    text = "import os\n\nprint(os.getcwd())\n"
    assert prefilter.applicable(text, ALL_RULES, Settings()) == []
    assert lint_text(text, "plain.py", LintOptions(codes=ALL_CODES)) == []
    assert calls == []
    broken = lint_text("def f(:\n", "broken.py", LintOptions(codes=ALL_CODES))
    assert [d.code for d in broken] == ["JAX000"]  # syntax errors are still reported


def test_custom_jit_decorator_opens_the_gate():
    text = snippet(
        """
        import mylib

        @mylib.compiled
        def f(x):
            if x > 0:
                return x
            return -x
        """
    )
    assert prefilter.applicable(text, ALL_RULES, Settings()) == []
    settings = Settings(jit_decorators=("mylib.compiled",))
    assert prefilter.applicable(text, ALL_RULES, settings)
    diags = lint_text(text, "m.py", LintOptions(settings=settings, codes=ALL_CODES))
    assert "JAX110" in {d.code for d in diags}


def test_whole_words_only():
    assert prefilter.has_word("import jax.numpy as jnp", "jax")
    assert prefilter.has_word("x = 1\njax", "jax")
    assert not prefilter.has_word("ajax = 1; jax_like = 2; myjax", "jax")
    assert prefilter.has_word("t = time.time()", "time")
    assert not prefilter.has_word("runtime = compile_time", "time")


def test_declared_words_take_precedence():
    class Declared(Rule):
        code = "JAX999"
        prefilter_words = ("needle",)

    class TwoGroups(Rule):
        code = "JAX998"
        prefilter_words = (("alpha",), ("beta", "gamma"))

    assert prefilter.applicable("x = needle", [Declared]) == [Declared]
    assert prefilter.applicable("import jax", [Declared]) == []
    assert prefilter.applicable("alpha + gamma", [TwoGroups]) == [TwoGroups]
    assert prefilter.applicable("alpha", [TwoGroups]) == []


def test_default_gate_holds_the_jax_family():
    words = prefilter.default_words(Settings())
    assert {"jax", "flax", "equinox", "optax", "numpy"} <= words


def test_disabled_keeps_every_rule(monkeypatch):
    monkeypatch.setattr(prefilter, "DISABLED", True)
    assert prefilter.applicable("import os", ALL_RULES) == list(ALL_RULES)


def test_split_rule_modules_keep_their_narrow_gates():
    """The narrow gates are data on the rules (`prefilter_words`), derived from the tables the
    rules match (`PMAPS`, `SHARD_MAPS`, a `RenameRule`'s `RENAMES`), so a move cannot lose them."""
    from jaxlint.rules import rules_by_code

    default = prefilter.default_words(Settings())
    by_code = rules_by_code()
    assert prefilter._rule_gate(by_code["JAX301"], default) == (frozenset({"pmap", "filter_pmap"}),)
    for code in ("JAX303", "JAX304", "JAX802"):
        assert prefilter._rule_gate(by_code[code], default) == (frozenset({"shard_map"}),), code
    assert prefilter._rule_gate(by_code["JAX803"], default) == (frozenset({"pjit"}),)


def test_a_non_ascii_jit_decorator_is_still_found():
    """The text's identifiers are collected as ASCII runs; a configured decorator with a
    non-ASCII name is searched in the text instead, so the rules it gates still run."""
    from jaxlint import prefilter
    from jaxlint.core.config import Settings
    from jaxlint.engine import LintOptions, lint_text

    words = prefilter._Words("@compilé\ndef f(x):\n    return x\n")
    assert words.has("compilé") and not words.has("jax")  # ("compil" too: a superset)
    text = "from {0} import {1}\n@{1}\ndef f(x):\n    if x > 0:\n        return x\n    return -x\n"
    for package, name in (("library", "compile_ascii"), ("bibliothèque", "compilé")):
        module = text.format(package, name)
        options = LintOptions(
            settings=Settings(jit_decorators=(f"{package}.{name}",), preview=True)
        )
        assert prefilter.applicable(module, list(ALL_RULES), options.settings)
        codes = {d.code for d in lint_text(module, "m.py", options)}
        assert "JAX110" in codes, (name, codes)


def test_project_text_word_searches_answer_as_their_regexes():
    # `_search_words` tests whole words without the regex for identifier words: the same
    # answers, word characters beyond ASCII (`é`, `²`, Arabic-Indic digits) included
    import random

    from jaxlint.analysis import project_text as pt

    pattern, words = pt._words_pattern(())
    cases = [
        (pattern, words),
        (pt._STATIC_DECL, pt._STATIC_DECL_WORDS),
        (pt._RANDOM, pt._RANDOM_WORDS),
    ]
    pieces = [
        *"jitvmapgrdcons_ .,()\n019é²℘xy",
        "jit",
        "cond",
        "random",
        "Module",
        "value_and_grad",
        "٠",
    ]
    rng = random.Random(0)
    for _ in range(20_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 24)))
        for regex, searched in cases:
            assert pt._search_words(regex, searched, text) == (regex.search(text) is not None), text
