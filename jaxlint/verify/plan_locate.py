"""Where a finding sits in the module: its node, statement, lines and enclosing functions.

`Located` is the planner's view of one diagnostic (the smallest AST node covering its span, the
statement around it, the lines a verifier attributes to it, the functions whose body holds it);
the small helpers beside it name a def (`def_qualname`) and read its parameters. The entry
choice, the input resolution and the kind hints all start from here. Static: no JAX.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.syntax import FUNCTION_NODES, ancestors
from jaxlint.core.diagnostic import Diagnostic
from jaxlint.core.source import SourceText


def def_qualname(fn: ast.AST, tree: ast.Module) -> str | None:
    """`name` or `Class.name` for a module-level def (or a method of a module-level class)."""
    parent = getattr(fn, "jl_parent", None)
    name = getattr(fn, "name", None)
    if name is None:
        return None
    if parent is tree:
        return name
    if isinstance(parent, ast.ClassDef) and getattr(parent, "jl_parent", None) is tree:
        return f"{parent.name}.{name}"
    return None


def positional_params(fn: ast.AST) -> list[ast.arg]:
    args = fn.args  # type: ignore[attr-defined]
    return [*args.posonlyargs, *args.args]


def is_method(fn: ast.AST) -> bool:
    return isinstance(getattr(fn, "jl_parent", None), ast.ClassDef)


def statement_of(node: ast.AST) -> ast.stmt | None:
    cur: ast.AST | None = node
    while cur is not None and not isinstance(cur, ast.stmt):
        cur = getattr(cur, "jl_parent", None)
    return cur  # type: ignore[return-value]


def _header_lines(stmt: ast.stmt) -> tuple[int, int]:
    """Lines of a statement, or of a compound statement's header only."""
    body = getattr(stmt, "body", None)
    if isinstance(body, list) and body and isinstance(body[0], ast.AST):
        first = min(
            [getattr(d, "lineno", stmt.lineno) for d in getattr(stmt, "decorator_list", [])]
            + [stmt.lineno]
        )
        return first, max(first, body[0].lineno - 1)
    return stmt.lineno, getattr(stmt, "end_lineno", stmt.lineno) or stmt.lineno


class Located:
    """The AST node a diagnostic points at, and its surroundings."""

    def __init__(self, index: ModuleIndex, source: SourceText, diag: Diagnostic) -> None:
        """`index`: the module's (its parent links place the node among its functions)."""
        tree = index.tree
        self.tree = tree
        self.node = _find_node(tree, source, diag)
        self.stmt = statement_of(self.node) if self.node is not None else None
        start, end = diag.span.start.line, max(diag.span.end.line, diag.span.start.line)
        lines = set(range(start, end + 1))
        if self.stmt is not None:
            a, b = _header_lines(self.stmt)
            if a <= start <= b:
                lines |= set(range(a, b + 1))
        self.lines = sorted(lines)
        self.functions = _enclosing_functions(self.node) if self.node is not None else []


def _enclosing_functions(node: ast.AST) -> list[ast.AST]:
    """Functions whose *body* holds `node`, innermost first (decorators and defaults run outside)."""
    out = []
    child = node
    for parent in ancestors(node):
        if isinstance(parent, FUNCTION_NODES):
            body = parent.body if isinstance(parent.body, list) else [parent.body]
            if any(child is b for b in body):
                out.append(parent)
        child = parent
    return out


def _find_node(tree: ast.Module, source: SourceText, diag: Diagnostic) -> ast.AST | None:
    """Smallest node whose span covers the diagnostic's span (exact match preferred)."""
    want_start = (diag.span.start.line, diag.span.start.col)
    want_end = (diag.span.end.line, diag.span.end.col)
    best: ast.AST | None = None
    best_size: tuple[int, int] | None = None
    for node in ast.walk(tree):
        if not hasattr(node, "lineno") or getattr(node, "end_lineno", None) is None:
            continue
        start = (node.lineno, source.col_from_utf8(node.lineno, node.col_offset))
        end = (node.end_lineno, source.col_from_utf8(node.end_lineno, node.end_col_offset))
        if start <= want_start and want_end <= end:
            size = (end[0] - start[0], (end[1] - start[1]) if end[0] == start[0] else 10**6)
            exact = start == want_start and end == want_end
            if exact and isinstance(node, ast.expr):
                size = (-1, 0)
            if best_size is None or size < best_size:
                best, best_size = node, size
    if best is None:  # fall back to the statement on the line
        for node in ast.walk(tree):
            if isinstance(node, ast.stmt) and node.lineno == diag.line:
                return node
    return best
