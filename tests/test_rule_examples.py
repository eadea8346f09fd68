"""Every rule's own examples, run as tests: flagged where marked, silent on near misses,
fixes give the expected text, re-parse, and are idempotent."""

from __future__ import annotations

import ast
import re

import pytest

from jaxlint.engine import LintOptions, fix_text, lint_text
from jaxlint.rules import ALL_RULES
from jaxlint.rules.docs import REQUIRED, docs_of
from tests.conftest import snippet

MARK = re.compile(r"#\s*error:\s*((?:JAX\d{3}[,\s]*)+)")


def _cases(kind: str):
    for rule in ALL_RULES:
        items = getattr(rule.examples, kind)
        for i, item in enumerate(items):
            yield pytest.param(rule, item, id=f"{rule.code}-{kind}-{i}")


def _options(rule) -> LintOptions:
    return LintOptions(codes=frozenset({rule.code}))


def expected_marks(text: str, code: str) -> set[int]:
    out = set()
    for i, line in enumerate(text.splitlines(), start=1):
        m = MARK.search(line)
        if m and code in m.group(1):
            out.add(i)
    return out


def test_every_rule_has_examples_and_docs():
    for rule in ALL_RULES:
        assert rule.examples.invalid, f"{rule.code} has no invalid examples"
        assert rule.examples.valid, f"{rule.code} has no valid examples"
        docs = docs_of(rule)
        for key in REQUIRED:
            section = docs.section(key)
            assert section and section.blocks, f"{rule.code} docs lack a '{key}:' section"
        for key in ("Example", "Use instead"):
            assert docs.section(key).code, f"{rule.code}: '{key}:' has no code (indent it 4)"
        if rule.fix_safety and rule.fix_safety != "display-only":  # display-only: never applied
            assert rule.examples.fixes or rule.examples.unsafe_fixes, (
                f"{rule.code} has a fix but no fix example"
            )


@pytest.mark.parametrize("rule,text", list(_cases("invalid")))
def test_invalid_examples_are_flagged(rule, text):
    src = snippet(text)
    want = expected_marks(src, rule.code)
    assert want, "invalid example without a `# error:` mark"
    diags = lint_text(src, "example.py", _options(rule))
    assert not [d for d in diags if d.code == "JAX000"], diags
    got = {d.line for d in diags if d.code == rule.code}
    assert got == want, "\n".join(f"{d.line}: {d.message}" for d in diags)


@pytest.mark.parametrize("rule,text", list(_cases("valid")))
def test_valid_examples_are_silent(rule, text):
    diags = lint_text(snippet(text), "example.py", _options(rule))
    assert diags == [], "\n".join(f"{d.line}: {d.code} {d.message}" for d in diags)


def _check_fix(rule, pair, unsafe):
    before, after = snippet(pair[0]), snippet(pair[1])
    result = fix_text(before, "example.py", _options(rule), unsafe=unsafe)
    assert result.text == after
    ast.parse(result.text)
    again = fix_text(result.text, "example.py", _options(rule), unsafe=unsafe)
    assert again.text == result.text, "fix is not idempotent"


@pytest.mark.parametrize("rule,pair", list(_cases("fixes")))
def test_safe_fixes(rule, pair):
    _check_fix(rule, pair, unsafe=False)


@pytest.mark.parametrize("rule,pair", list(_cases("unsafe_fixes")))
def test_unsafe_fixes(rule, pair):
    _check_fix(rule, pair, unsafe=True)
    # without --unsafe-fixes the unsafe part is not applied
    before = snippet(pair[0])
    safe_only = fix_text(before, "example.py", _options(rule), unsafe=False)
    assert safe_only.text != snippet(pair[1])
