"""Text edits for API migrations: call arguments, statements, imports, object spellings.

Every helper returns plain `Edit`s computed from `ast` positions, so the text outside the
edited span (formatting, comments) is untouched. Helpers return None when the edit cannot
be made exactly; the caller then reports without a fix.
"""

from __future__ import annotations

import ast
import re

from jaxlint.analysis import syntax
from jaxlint.core.diagnostic import Edit, Position
from jaxlint.edits.imports import spell
from jaxlint.edits.view import ModuleView

_FROM_MODULE = re.compile(r"from\s+([\w.]+)")
_SIMPLE = (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.Constant, ast.Set, ast.Tuple)


# -- calls ------------------------------------------------------------------------------


def has_star(call: ast.Call) -> bool:
    """`f(*a)` / `f(**k)`: argument positions are unknown."""
    return any(isinstance(a, ast.Starred) for a in call.args) or any(
        kw.arg is None for kw in call.keywords
    )


def keyword_node(call: ast.Call, name: str) -> ast.keyword | None:
    for kw in call.keywords:
        if kw.arg == name:
            return kw


def rename_keyword(ctx: ModuleView, kw: ast.keyword, new: str) -> Edit:
    """`old=value` -> `new=value` (the name only)."""
    start = ctx.start(kw)
    return Edit(start, Position(start.line, start.col + len(kw.arg or "")), new)


def drop_keyword_name(ctx: ModuleView, kw: ast.keyword) -> Edit:
    """`name=value` -> `value` (for parameters that became positional-only)."""
    return Edit(ctx.start(kw), ctx.start(kw.value), "")


def name_argument(ctx: ModuleView, arg: ast.expr, name: str) -> Edit:
    """Positional `value` -> keyword `name=value`."""
    pos = ctx.start(arg)
    return Edit(pos, pos, f"{name}=")


def keywordize(
    ctx: ModuleView, call: ast.Call, params: tuple[str, ...], first: int, renames: dict[str, str]
) -> list[Edit] | None:
    """Positional arguments from index `first` on become keywords named by `params`
    (the old signature); keywords in `renames` get their new names. None if it cannot be
    done exactly (star arguments, too many positionals, a parameter given twice)."""
    if has_star(call) or len(call.args) > len(params):
        return None
    edits = [name_argument(ctx, a, params[i]) for i, a in enumerate(call.args) if i >= first]
    given = {params[i] for i in range(len(call.args))}
    for kw in call.keywords:
        if kw.arg in given:
            return None
        if kw.arg in renames:
            edits.append(rename_keyword(ctx, kw, renames[kw.arg]))
    return edits


def argument_of(call: ast.Call, position: int, name: str) -> ast.expr | None:
    if position < len(call.args) and not isinstance(call.args[position], ast.Starred):
        return call.args[position]
    kw = keyword_node(call, name)
    return kw.value if kw is not None else None


def parenthesized(ctx: ModuleView, node: ast.expr) -> str:
    """Source of `node`, in parentheses unless it is atomic."""
    text = ctx.text(node)
    return text if isinstance(node, _SIMPLE) else f"({text})"


# -- statements -------------------------------------------------------------------------


def _block_of(stmt: ast.stmt) -> list[ast.stmt] | None:
    parent = syntax.parent(stmt)
    for field in ("body", "orelse", "finalbody", "handlers"):
        block = getattr(parent, field, None)
        if isinstance(block, list) and stmt in block:
            return block
    return None


def delete_statement(ctx: ModuleView, stmt: ast.stmt) -> Edit:
    """Remove a statement: its whole lines when it stands alone on them, `pass` when it
    is the only statement of its block or shares a line with another one."""
    block = _block_of(stmt)
    src = ctx.source
    first, last = stmt.lineno, stmt.end_lineno or stmt.lineno
    before = src.line(first)[: ctx.start(stmt).col]
    after = src.line(last)[ctx.end(stmt).col :].strip()
    alone = not before.strip() and (not after or after.startswith("#"))
    if block is None or len(block) == 1 or not alone:
        return ctx.replace(stmt, "pass")
    if last < src.line_count:
        return Edit(Position(first, 0), Position(last + 1, 0), "")
    if first > 1:  # last line without a final newline: take the newline before it
        return Edit(
            Position(first - 1, len(src.line(first - 1))), Position(last, len(src.line(last))), ""
        )
    return Edit(Position(first, 0), Position(last, len(src.line(last))), "")


def insert_after_statement(ctx: ModuleView, stmt: ast.stmt, text: str) -> Edit:
    """A new line with `text` after `stmt`, at the statement's indentation."""
    src = ctx.source
    last = stmt.end_lineno or stmt.lineno
    indent = ctx.line_indent(stmt.lineno)
    nl = src.newline
    if last < src.line_count:
        pos = Position(last + 1, 0)
        return Edit(pos, pos, f"{indent}{text}{nl}")
    pos = Position(last, len(src.line(last)))
    return Edit(pos, pos, f"{nl}{indent}{text}")


# -- imports ----------------------------------------------------------------------------


def module_span_edit(ctx: ModuleView, stmt: ast.ImportFrom, new_module: str) -> Edit | None:
    """`from old.mod import x` -> `from new.mod import x`."""
    m = _FROM_MODULE.match(ctx.text(stmt))
    if m is None or m.group(1) != stmt.module:
        return None
    start = ctx.start(stmt)
    a = Position(start.line, start.col + m.start(1))
    return Edit(a, Position(start.line, start.col + m.end(1)), new_module)


def remove_alias(ctx: ModuleView, stmt: ast.Import | ast.ImportFrom, alias: ast.alias) -> Edit:
    """Drop one name from an import; the whole statement when it is the only one."""
    names = stmt.names
    if len(names) == 1:
        return delete_statement(ctx, stmt)
    i = names.index(alias)
    if i + 1 < len(names):
        return Edit(ctx.start(alias), ctx.start(names[i + 1]), "")
    return Edit(ctx.end(names[i - 1]), ctx.end(alias), "")


def import_text(new: str, local: str | None, *, from_form: bool) -> str:
    """The import statement that binds `local` to the object or module `new`."""
    mod, _, attr = new.rpartition(".")
    if from_form or not mod:
        return f"from {mod} import {attr}" + (f" as {local}" if local and local != attr else "")
    return f"import {new}" + (f" as {local}" if local else "")


# -- spelling objects -------------------------------------------------------------------


def bound_name(
    ctx: ModuleView, qualnames: tuple[str, ...], at: ast.AST | None = None
) -> str | None:
    """A module-level name imported as one of `qualnames` (`P` for
    `jax.sharding.PartitionSpec`) and visible at `at`, if any."""
    scope = ctx.index.scopes[ctx.index.tree]
    for name, bindings in scope.bindings.items():
        if len(bindings) != 1 or bindings[0].kind != "import":
            continue
        if bindings[0].qualname not in qualnames:
            continue
        if at is not None and ctx.index.lookup(name, ctx.index.scope_of(at)) != bindings:
            continue
        return name
    return None


def spell_partition_spec(ctx: ModuleView, at: ast.AST | None = None) -> tuple[str, list[Edit]]:
    """`P` when the module imports it under some name, else `jax.P` (JAX >= 0.7), else
    `jax.sharding.PartitionSpec` (every JAX)."""
    name = bound_name(ctx, ("jax.sharding.PartitionSpec", "jax.P"), at)
    if name is not None:
        return name, []
    return spell(ctx, "jax.P" if ctx.target.all_have("0.7") else "jax.sharding.PartitionSpec")


def config_update(ctx: ModuleView, call: ast.Call) -> tuple[str, ast.expr | None] | None:
    """(`option`, value node) of `jax.config.update("option", value)`, else None."""
    if ctx.qualname(call.func) not in ("jax.config.update", "jax._src.config.config.update"):
        return None
    if not call.args or not isinstance(call.args[0], ast.Constant):
        return None
    option = call.args[0].value
    if not isinstance(option, str):
        return None
    return option, call.args[1] if len(call.args) > 1 else None


def expression_statement(node: ast.AST) -> ast.Expr | None:
    parent = syntax.parent(node)
    return parent if isinstance(parent, ast.Expr) and parent.value is node else None


def environ_setting(ctx: ModuleView, node: ast.stmt) -> str | None:
    """`os.environ["NAME"] = ...` / `os.environ.setdefault("NAME", ...)`: the variable name."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        t = node.targets[0]
        if (
            isinstance(t, ast.Subscript)
            and ctx.qualname(t.value) == "os.environ"
            and isinstance(t.slice, ast.Constant)
            and isinstance(t.slice.value, str)
        ):
            return t.slice.value
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        call = node.value
        if (
            ctx.qualname(call.func) in ("os.environ.setdefault", "os.putenv")
            and call.args
            and isinstance(call.args[0], ast.Constant)
            and isinstance(call.args[0].value, str)
        ):
            return call.args[0].value
    return None
