"""A rule's documentation, parsed once into sections that every surface renders.

A rule's docstring follows one convention (docs/CONTRIBUTING-rules.md): a one-line summary,
then labelled sections, each running until the next label:

    What it does: finds ...
    Why is this bad: ...
    Example:
        <code, indented four spaces>
    Use instead:
        <code>
    Fix: safe. ...

`parse` turns that text into `RuleDocs` (summary, intro, ordered `Section`s of prose and code
`Block`s). `jaxlint explain` (plain text), `docs/rules.md` (Markdown, via docgen), the LSP
hover (Markdown) and SARIF `help` all render from this one parse, as ruff renders its rule
docs, so no surface re-parses another's output. Only the labels in `LABELS` open a section:
a sentence that happens to end in a colon ("It only sets the legacy resource env:") stays
prose.
"""

from __future__ import annotations

import ast
import functools
import inspect
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from jaxlint.rules.base import Rule

# the section labels a docstring may use, in their usual order; the first four are required
REQUIRED = ("What it does", "Why is this bad", "Example", "Use instead")
LABELS = (*REQUIRED, "Fix", "No automatic fix", "Known problems", "Options", "References")
# "Fix (safe): ..." carries the applicability in the label; it is the "Fix" section
_LABEL = re.compile(
    r"^(?P<label>What it does|Why is this bad|Example|Use instead|Fix(?: \([a-z -]+\))?"
    r"|No automatic fix|Known problems|Options|References):(?=\s|$)"
)
_CODE_INDENT = "    "


@dataclass(frozen=True, slots=True)
class Block:
    """A paragraph of prose (its lines as written) or a code block (dedented by four spaces)."""

    kind: Literal["prose", "code"]
    text: str

    @property
    def language(self) -> str:
        """`python` for a code block that parses as Python, else `text` (shell, TOML, output)."""
        if self.kind != "code":
            return ""
        try:
            ast.parse(self.text)
        except SyntaxError:
            return "text"
        return "python"


@dataclass(frozen=True, slots=True)
class Section:
    """One labelled part of the docs: `title` as written ("Fix (safe)"), `key` its canonical
    name ("Fix"; "No automatic fix" is a "Fix" section too)."""

    title: str
    blocks: tuple[Block, ...]

    @property
    def key(self) -> str:
        if self.title.startswith("Fix") or self.title == "No automatic fix":
            return "Fix"
        return self.title

    @property
    def code(self) -> tuple[str, ...]:
        return tuple(b.text for b in self.blocks if b.kind == "code")

    @property
    def prose(self) -> str:
        return "\n\n".join(b.text for b in self.blocks if b.kind == "prose")


@dataclass(frozen=True, slots=True)
class RuleDocs:
    summary: str  # the first line
    intro: tuple[Block, ...]  # the summary paragraph and anything else before the first label
    sections: tuple[Section, ...]

    def section(self, key: str) -> Section | None:
        """The first section whose canonical key (or title) is `key`."""
        for s in self.sections:
            if key in (s.key, s.title):
                return s
        return None


def _blocks(lines: list[str]) -> tuple[Block, ...]:
    """Split a section's lines into prose paragraphs and code blocks.

    A line indented four spaces starts (or continues) a code block; blank lines inside a code
    block belong to it when more code follows. Other blank lines end a prose paragraph.
    """
    out: list[Block] = []
    prose: list[str] = []
    code: list[str] = []

    def flush() -> None:
        if prose:
            out.append(Block("prose", "\n".join(prose)))
            prose.clear()
        while code and not code[-1].strip():
            code.pop()
        if code:
            out.append(Block("code", "\n".join(code)))
            code.clear()

    for i, line in enumerate(lines):
        if line.startswith(_CODE_INDENT) and line.strip():
            if prose:
                flush()
            code.append(line[len(_CODE_INDENT) :].rstrip())
        elif not line.strip():
            if code and any(
                nxt.startswith(_CODE_INDENT) and nxt.strip() for nxt in _until_text(lines[i + 1 :])
            ):
                code.append("")
            else:
                flush()
        else:
            if code:
                flush()
            prose.append(line.rstrip())
    flush()
    return tuple(out)


def _until_text(lines: list[str]) -> list[str]:
    """The next non-blank line (as a one-item list), or nothing."""
    for line in lines:
        if line.strip():
            return [line]
    return []


@functools.cache
def parse(docstring: str) -> RuleDocs:
    """Parse a rule docstring (raw or cleaned) into its summary, intro and sections."""
    lines = inspect.cleandoc(docstring or "").splitlines()
    summary = lines[0].strip() if lines else ""
    intro: list[str] = []
    sections: list[tuple[str, list[str]]] = []
    for line in lines:
        m = _LABEL.match(line)
        if m:
            rest = line[m.end() :].strip()
            sections.append((m.group("label"), [rest] if rest else []))
        elif sections:
            sections[-1][1].append(line)
        else:
            intro.append(line)
    return RuleDocs(
        summary=summary,
        intro=_blocks(intro),
        sections=tuple(Section(title, _blocks(body)) for title, body in sections),
    )


def docs_of(rule: type[Rule]) -> RuleDocs:
    return parse(rule.__doc__ or "")


# -- renderers --------------------------------------------------------------------------------


def render_text(docs: RuleDocs) -> str:
    """Plain text, as `jaxlint explain` prints it: labels inline, code indented four spaces."""
    parts = [b.text if b.kind == "prose" else _indent(b.text) for b in docs.intro]
    for s in docs.sections:
        head = f"{s.title}:"
        chunks: list[str] = []
        for i, b in enumerate(s.blocks):
            if b.kind == "prose":
                chunks.append(f"{head} {b.text}" if i == 0 else b.text)
            else:
                chunks.append(f"{head}\n{_indent(b.text)}" if i == 0 else _indent(b.text))
        parts.append("\n".join(chunks) if chunks else head)
    return "\n\n".join(parts)


def render_markdown(docs: RuleDocs, *, summary: bool = True) -> str:
    """Markdown: labels bold, code in fenced blocks with a language (docs/rules.md, LSP hover)."""
    parts = [_md_block(b) for b in (docs.intro if summary else docs.intro[1:])]
    for s in docs.sections:
        blocks = list(s.blocks)
        if blocks and blocks[0].kind == "prose":
            parts.append(f"**{s.title}:** {blocks.pop(0).text}")
        else:
            parts.append(f"**{s.title}:**")
        parts.extend(_md_block(b) for b in blocks)
    return "\n\n".join(parts)


def _md_block(b: Block) -> str:
    return b.text if b.kind == "prose" else f"```{b.language}\n{b.text}\n```"


def _indent(code: str) -> str:
    return "\n".join(_CODE_INDENT + line if line else "" for line in code.splitlines())


# -- the rule's page, per surface ------------------------------------------------------------


def _meta(rule: type[Rule]) -> list[tuple[str, str]]:
    from jaxlint.core.codes import is_preview_rule, preview_confidences

    default = "on" if rule.default else f"opt-in (enable with --extend-select {rule.code})"
    meta: list[tuple[str, str]] = [("Default", default)]
    if is_preview_rule(rule.code):
        meta.append(("Preview", "yes: reported only with `--preview` (or `preview = true`)"))
    elif preview_confidences(rule.code):
        levels = ", ".join(preview_confidences(rule.code))
        meta.append(("Preview", f"its {levels}-confidence findings need `--preview`"))
    meta += [
        ("Fix", _fix_meta(rule)),
        (
            "Verifier",
            f"{rule.verifier or 'none'} (`jaxlint verify FILE` confirms findings with JAX)",
        ),
    ]
    if rule.templates:
        meta.append(
            (
                "Template",
                ", ".join(f"`jaxlint template {t}`" for t in rule.templates)
                + " shows the idiomatic fix",
            )
        )
    return meta


def _fix_meta(rule: type[Rule]) -> str:
    if rule.fix_safety is None:
        return "none"
    return f"{rule.fix_safety} ({rule.fix_availability} available)"


def explain_text(rule: type[Rule]) -> str:
    """`jaxlint explain CODE`: a header, the docs as text, then the rule's metadata."""
    header = f"{rule.code} ({rule.name})"
    meta = "\n".join(f"{k}: {v}" for k, v in _meta(rule))
    return f"{header}\n{'=' * len(header)}\n\n{render_text(docs_of(rule))}\n\n{meta}\n"


def explain_markdown(rule: type[Rule]) -> str:
    """The same page in Markdown (LSP hover, SARIF `help.markdown`)."""
    meta = "  \n".join(f"**{k}:** {v}" for k, v in _meta(rule))
    body = render_markdown(docs_of(rule))
    return f"### {rule.code} ({rule.name})\n\n{body}\n\n{meta}\n"
