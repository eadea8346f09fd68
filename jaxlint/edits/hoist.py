"""Hoisting fixes: evaluate a loop-invariant expression or statement once, before the loop.

Plain text edits from `ast` positions. The moved text keeps its comments; continuation
lines keep their indentation relative to the first line; nothing else is touched. Every
helper returns None when it cannot produce an edit that is certainly well formed (a
statement sharing its line with another, a multi-line string that cannot be re-indented,
a block that would become empty).
"""

from __future__ import annotations

import ast

from jaxlint.analysis import syntax
from jaxlint.core.diagnostic import Edit, Position
from jaxlint.edits.imports import name_is_free
from jaxlint.edits.view import ModuleView


def _starts_line(ctx: ModuleView, node: ast.AST) -> bool:
    line = ctx.source.line(node.lineno)  # type: ignore[attr-defined]
    col = ctx.start(node).col
    return line[:col].strip() == ""


def _ends_line(ctx: ModuleView, node: ast.AST) -> bool:
    """Only whitespace or a comment follows `node` on its last line."""
    end = ctx.end(node)
    rest = ctx.source.line(end.line)[end.col :].strip()
    return rest == "" or rest.startswith("#")


def _has_multiline_string(node: ast.AST) -> bool:
    return any(
        isinstance(n, (ast.Constant, ast.JoinedStr))
        and (isinstance(n, ast.JoinedStr) or isinstance(n.value, (str, bytes)))
        and n.lineno != n.end_lineno
        for n in ast.walk(node)
    )


def _reindent(lines: list[str], old: str, new: str) -> list[str] | None:
    """Continuation lines moved from indentation `old` to `new`, relative layout kept."""
    out = [lines[0]]
    for line in lines[1:]:
        if not line.strip():
            out.append("")
            continue
        if not line.startswith(old):
            return None
        out.append(new + line[len(old) :])
    return out


def fresh_name(ctx: ModuleView, base: str) -> str:
    """`base`, or `base_2`, `base_3`, ... : a name bound nowhere in the module."""
    base = base if base.isidentifier() else "hoisted"
    if name_is_free(ctx, base) and not _mentioned(ctx, base):
        return base
    i = 2
    while not name_is_free(ctx, f"{base}_{i}") or _mentioned(ctx, f"{base}_{i}"):
        i += 1
    return f"{base}_{i}"


def _mentioned(ctx: ModuleView, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(ctx.index.tree))


def hoist_expression(
    ctx: ModuleView, expr: ast.expr, before: ast.stmt, name: str
) -> list[Edit] | None:
    """`name = <expr>` on a new line above `before`; `expr` itself becomes `name`."""
    if not _starts_line(ctx, before) or _has_multiline_string(expr):
        return None
    stmt = syntax.statement_of(expr)
    if stmt is None:
        return None
    indent = ctx.line_indent(before.lineno)
    text_lines = ctx.text(expr).splitlines()
    moved = _reindent(text_lines, ctx.line_indent(stmt.lineno), indent)
    if moved is None:
        return None
    nl = ctx.source.newline
    line = f"{indent}{name} = {nl.join(moved)}{nl}"
    return [ctx.insert(Position(before.lineno, 0), line), ctx.replace(expr, name)]


def hoist_statement(ctx: ModuleView, stmt: ast.stmt, before: ast.stmt) -> list[Edit] | None:
    """Move `stmt` (with the comment lines right above it) to just above `before`."""
    if not (_starts_line(ctx, stmt) and _ends_line(ctx, stmt) and _starts_line(ctx, before)):
        return None
    if _has_multiline_string(stmt) or _alone_in_block(stmt):
        return None
    first = stmt.lineno
    old_indent = ctx.line_indent(stmt.lineno)
    while first > 1:
        above = ctx.source.line(first - 1)
        if above.strip().startswith("#") and ctx.line_indent(first - 1) == old_indent:
            first -= 1
        else:
            break
    last = stmt.end_lineno or stmt.lineno
    lines = [ctx.source.line(n) for n in range(first, last + 1)]
    new_indent = ctx.line_indent(before.lineno)
    moved = [new_indent + lines[0][len(old_indent) :]]
    rest = _reindent(["", *lines[1:]], old_indent, new_indent)
    if rest is None:
        return None
    moved += rest[1:]
    nl = ctx.source.newline
    if last < ctx.source.line_count:
        delete = Edit(Position(first, 0), Position(last + 1, 0), "")
    else:  # last line of a file without a final newline
        delete = Edit(
            Position(first - 1, len(ctx.source.line(first - 1))),
            Position(last, len(ctx.source.line(last))),
            "",
        )
    insert = ctx.insert(Position(before.lineno, 0), nl.join(moved) + nl)
    return [insert, delete]


def _alone_in_block(stmt: ast.stmt) -> bool:
    parent = syntax.parent(stmt)
    for attr in ("body", "orelse", "finalbody", "handlers"):
        block = getattr(parent, attr, None)
        if isinstance(block, list) and any(s is stmt for s in block):
            return len(block) == 1
    return True
