"""Writes docs/rules.md from the registry: `python -m jaxlint.docgen > docs/rules.md`.

The rule classes are the single source of truth (docs, fix safety, verifier, templates);
a test fails when docs/rules.md falls behind them. Each rule's docs are rendered from the one
parse in `jaxlint.rules.docs` (labels bold, examples as fenced Python), like `jaxlint explain`
and the LSP hover.
"""

from __future__ import annotations

import sys

from jaxlint.rules import ALL_RULES
from jaxlint.rules.docs import docs_of, render_markdown


def render() -> str:
    out = [
        "# jaxlint rules\n",
        "\nGenerated from the rule classes by `python -m jaxlint.docgen`; do not edit by hand.\n",
        "Codes are a public contract: never renumbered or reused.\n\n",
        "| code | name | default | fix | verifier |\n|---|---|---|---|---|\n",
    ]
    for r in ALL_RULES:
        out.append(
            f"| [{r.code}](#{r.code.lower()}) | {r.name} | {'on' if r.default else 'opt-in'} "
            f"| {r.fix_safety or 'none'} | {r.verifier or 'none'} |\n"
        )
    out.append("| JAX000 | file could not be read, parsed or analysed | on | none | none |\n")
    for r in ALL_RULES:
        out.append(f"\n## {r.code}\n\n**{r.name}**")
        out.append(f" · {'default' if r.default else 'opt-in'} · fix: {r.fix_safety or 'none'}")
        out.append(f" · verifier: `{r.verifier or 'none'}`")
        if r.templates:
            out.append(" · template: " + ", ".join(f"`{t}`" for t in r.templates))
        out.append("\n\n" + render_markdown(docs_of(r)) + "\n")
    return "".join(out)


if __name__ == "__main__":
    sys.stdout.write(render())
