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
            f"| [{r.code}](#{r.code.lower()}) | {r.name} | {_default(r)} "
            f"| {r.fix_safety or 'none'} | {r.verifier or 'none'} |\n"
        )
    out.append("| JAX000 | file could not be read, parsed or analysed | on | none | none |\n")
    for r in ALL_RULES:
        out.append(f"\n## {r.code}\n\n**{r.name}**")
        out.append(f" · {'default' if r.default else 'opt-in'}{_preview(r)}")
        out.append(f" · fix: {r.fix_safety or 'none'}")
        out.append(f" · verifier: `{r.verifier or 'none'}`")
        if r.templates:
            out.append(" · template: " + ", ".join(f"`{t}`" for t in r.templates))
        out.append("\n\n" + render_markdown(docs_of(r)) + "\n")
    out.append(_versions())
    return "".join(out)


def _default(rule) -> str:  # noqa: ANN001
    """The table's default column: `on` / `opt-in`, with `(preview)` for a preview rule."""
    return (
        ("on" if rule.default else "opt-in")
        + _preview(rule).replace(" · ", " (")
        + (")" if _preview(rule) else "")
    )


def _preview(rule) -> str:  # noqa: ANN001
    """` · preview` (the whole rule) or ` · preview: medium` (a confidence level), else ""."""
    from jaxlint.core.codes import is_preview_rule, preview_confidences

    if is_preview_rule(rule.code):
        return " · preview"
    levels = preview_confidences(rule.code)
    return f" · preview: {', '.join(levels)}" if levels else ""


def _versions() -> str:
    from jaxlint.core.jaxversion import CHANGES_011_012, NEWEST, OLDEST, show

    out = [
        "\n## Target JAX version\n\n",
        f"The removed-API rules (JAX3xx, JAX8xx) know JAX {show(OLDEST)} to {show(NEWEST)}. A finding fires ",
        "only when some target JAX has deprecated or removed the API, its message names the ",
        "version, and a fix writes only APIs that every target JAX has (otherwise it is unsafe, ",
        "or the message only advises). The target: `--target-jax`, `target-jax` in ",
        "`[tool.jaxlint]`, else the project's `jax` requirement, else the installed `jax`, else ",
        f"JAX {show(NEWEST)} (`jaxlint check --show-settings` prints it). Code in a branch only an ",
        "older JAX runs (`else:` of `hasattr(jax, ...)`, `except ImportError:`, ",
        "`if jax.__version_info__ < ...:`) is compatibility code: the removed-API rules are ",
        "silent there.\n\n",
        "### JAX 0.11 and 0.12 changes\n\n| change | JAX | covered by |\n|---|---|---|\n",
    ]
    for c in CHANGES_011_012:
        where = f"[{c.code}](#{c.code.lower()})" if c.code else f"out of scope: {c.out_of_scope}"
        out.append(f"| {c.what} | {c.version} | {where} |\n")
    return "".join(out)


if __name__ == "__main__":
    sys.stdout.write(render())
