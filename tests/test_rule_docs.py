"""A rule's docs are parsed once (`jaxlint.rules.docs`) and every surface renders that parse:
`jaxlint explain` (text), docs/rules.md (Markdown), the LSP hover and SARIF `help`."""

from __future__ import annotations

import json

from jaxlint.core.diagnostic import Diagnostic, Span
from jaxlint.integrations.formats import render_sarif
from jaxlint.rules import ALL_RULES, get_rule
from jaxlint.rules.docs import docs_of, explain_markdown, explain_text, parse, render_markdown

DOC = """Flags something.

    What it does: finds `x` in
    two lines.
    Why is this bad: it raises
    `TracerBoolConversionError`.
    It only sets the legacy env: a sentence with a colon stays prose.
    Example:
        @jax.jit
        def f(x):
            y = 1

            return x
    Use instead:
        g(x)
    Or `lax.cond`.
    Fix (safe): rewrites it.
    """


def test_sections_in_order_with_prose_and_code():
    docs = parse(DOC)
    assert docs.summary == "Flags something."
    assert [s.title for s in docs.sections] == [
        "What it does",
        "Why is this bad",
        "Example",
        "Use instead",
        "Fix (safe)",
    ]
    assert docs.section("What it does").prose == "finds `x` in\ntwo lines."
    assert "It only sets the legacy env:" in docs.section("Why is this bad").prose
    example = docs.section("Example")
    # a blank line inside the code stays in the block
    assert example.code == ("@jax.jit\ndef f(x):\n    y = 1\n\n    return x",)
    use = docs.section("Use instead")
    assert [b.kind for b in use.blocks] == ["code", "prose"]
    assert docs.section("Fix").title == "Fix (safe)"  # found by its canonical key


def test_text_keeps_the_docstring_lines():
    docs = parse(DOC)
    text = render_text_lines(docs)
    original = [line.strip() for line in DOC.splitlines() if line.strip()]
    assert text == original


def render_text_lines(docs) -> list[str]:  # noqa: ANN001
    from jaxlint.rules.docs import render_text

    return [line.strip() for line in render_text(docs).splitlines() if line.strip()]


def test_every_rule_renders_without_losing_a_line():
    for rule in ALL_RULES:
        original = [line.strip() for line in rule.docs().splitlines() if line.strip()]
        assert render_text_lines(docs_of(rule)) == original, rule.code


def test_markdown_fences_code_and_bolds_labels():
    md = render_markdown(parse(DOC))
    assert "**What it does:** finds `x` in" in md
    assert "**Example:**\n\n```python\n@jax.jit\ndef f(x):\n    y = 1\n\n    return x\n```" in md
    assert "**Fix (safe):** rewrites it." in md


def test_explain_and_hover_share_the_parse():
    rule = get_rule("JAX110")
    text = explain_text(rule)
    assert text.startswith("JAX110 (python-control-flow-on-traced)\n====")
    assert "Why is this bad: " in text and "TracerBoolConversionError" in text
    md = explain_markdown(rule)
    assert md.startswith("### JAX110 (python-control-flow-on-traced)")
    assert "**Why is this bad:**" in md and "```python\n@jax.jit" in md
    assert "**Verifier:**" in md


def test_docs_page_has_fenced_examples():
    from jaxlint.docgen import render

    page = render()
    assert "```text\nFlags" not in page  # no longer the docstring pasted as one block
    # every Example and Use instead is fenced; Python where it parses (a fragment is `text`)
    assert page.count("```python") + page.count("```text") >= 2 * len(ALL_RULES)
    assert page.count("```python") >= 2 * len(ALL_RULES) - 2


def test_sarif_help_is_rendered_from_the_parse():
    d = Diagnostic("JAX101", "msg", "a.py", Span.of(1, 0, 1, 1))
    rule = json.loads(render_sarif([d]))["runs"][0]["tool"]["driver"]["rules"][0]
    assert rule["fullDescription"]["text"].startswith("finds conversions of a traced value")
    assert "```python" in rule["help"]["markdown"]
    assert rule["help"]["text"].startswith("JAX101 (host-conversion-of-traced-value)")
