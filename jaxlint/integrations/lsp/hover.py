"""Hover over a flagged range: the finding, its display-only suggestion and the rule's page.

The rule's documentation comes from the one parse of its docstring (`jaxlint.rules.docs`), the
same text `jaxlint explain` prints, so an editor never shows docs that drift from the CLI's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from jaxlint.integrations.formats import rule_url, suggestion
from jaxlint.integrations.lsp.positions import overlaps

if TYPE_CHECKING:
    from jaxlint.integrations.lsp.server import JaxlintServer


def rule_markdown(code: str) -> str | None:
    """The rule's page as Markdown, from the one parse of its docs, plus a docs link."""
    from jaxlint.rules import get_rule
    from jaxlint.rules.docs import explain_markdown

    rule = get_rule(code)
    if rule is None:
        return None
    return explain_markdown(rule) + f"\n[{code} documentation]({rule_url(code)})\n"


async def hover(ls: JaxlintServer, params: types.HoverParams) -> types.Hover | None:
    """`textDocument/hover`: every distinct code flagged at the position, first range shown."""
    result = await ls.lint(params.text_document.uri)
    if result is None:
        return None
    pos = result.index.from_client(params.position)
    hits = [d for d in result.diagnostics if overlaps(d, pos, pos)]
    if not hits:
        return None
    parts = []
    seen: set[str] = set()
    for d in hits:
        if d.code in seen:
            continue
        seen.add(d.code)
        docs = rule_markdown(d.code)
        hint = suggestion(d)
        head = f"**{d.code}**: {d.message}" + (f"\n\n{hint}" if hint else "")
        parts.append(head + (f"\n\n{docs}" if docs else ""))
    first = hits[0]
    return types.Hover(
        contents=types.MarkupContent(
            kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(parts)
        ),
        range=result.index.range_to_client(first.span.start, first.span.end),
    )
