"""The module as the edit toolkit sees it: its text, its facts, and edits spelled in positions.

Fix builders (`edits/*`) and the rules' `Context` share this view, so the toolkit never imports
a rule: `rules.base.Context` subclasses `ModuleView` and adds only the walk state (which function
the engine is in). Positions are code-point columns on the source text, as the edits need them.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from jaxlint.core.diagnostic import Edit, Position, Span

if TYPE_CHECKING:
    from jaxlint.analysis import ModuleFacts
    from jaxlint.core.source import SourceText


@dataclass
class ModuleView:
    """One module's path, source and facts, with position and edit helpers over its nodes."""

    path: str
    source: SourceText
    facts: ModuleFacts
    options: dict = field(default_factory=dict)

    @property
    def index(self):  # noqa: ANN201
        return self.facts.index

    @property
    def target(self):  # noqa: ANN201 - jaxversion.JaxTarget
        """The JAX versions the code must run on (`--target-jax`, config, or inferred)."""
        found = self.options.get("target-jax")
        if found is None:
            from jaxlint.core.jaxversion import newest

            found = self.options["target-jax"] = newest()
        return found

    @property
    def taint(self):  # noqa: ANN201
        return self.facts.taint

    @property
    def keys(self):  # noqa: ANN201
        return self.facts.keys

    def qualname(self, node: ast.AST) -> str | None:
        # the index's own method from the first call on (an instance attribute shadows this
        # one): the rules ask it of nearly every call and attribute of a module
        found = self.qualname = self.facts.index.qualname  # type: ignore[method-assign]
        return found(node)

    def start(self, node: ast.AST) -> Position:
        line = node.lineno  # type: ignore[attr-defined]
        return Position(line, self.source.col_from_utf8(line, node.col_offset))  # type: ignore[attr-defined]

    def end(self, node: ast.AST) -> Position:
        line = node.end_lineno  # type: ignore[attr-defined]
        return Position(line, self.source.col_from_utf8(line, node.end_col_offset))  # type: ignore[attr-defined]

    def span(self, node: ast.AST) -> Span:
        return Span(self.start(node), self.end(node))

    def text(self, node: ast.AST) -> str:
        src = self.source
        return src.text[src.offset(self.start(node)) : src.offset(self.end(node))]

    def replace(self, node: ast.AST, content: str) -> Edit:
        return Edit(self.start(node), self.end(node), content)

    def insert(self, pos: Position, content: str) -> Edit:
        return Edit(pos, pos, content)

    def line_indent(self, line: int) -> str:
        text = self.source.line(line)
        return text[: len(text) - len(text.lstrip())]
