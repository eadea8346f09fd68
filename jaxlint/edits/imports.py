"""Import management for fixes: reuse an alias the module already has, else add an import.

A fix never leaves a name undefined: it either spells the target through an existing
module-level alias (`jnp`, `jax`) or inserts `import jax.numpy as jnp` where imports go:
beside the module's other imports of the package, else above its local (relative) imports,
else after the last top-level import (after the docstring and `__future__` imports when
there is none).
"""

from __future__ import annotations

import ast

from jaxlint.core.diagnostic import Edit, Position
from jaxlint.edits.view import ModuleView

PREFERRED_ALIAS = {
    "jax": "jax",
    "jax.numpy": "jnp",
    "jax.lax": "lax",
    "jax.random": "jr",
    "jax.extend.core": None,
    "jax.extend": None,
    "jax.extend.backend": None,
    "jax.extend.linear_util": None,
    "jax.sharding": None,
}


def module_alias(ctx: ModuleView, module: str) -> str | None:
    """A module-level name bound to exactly `module` (`jnp` for `jax.numpy`), if any.
    Memoised on the module's index: every fix that names a module asks, and each answer
    scans the module's bindings (a file with many fixable findings made that quadratic)."""
    memo = ctx.index.__dict__.setdefault("_jl_module_alias", {})
    if module not in memo:
        memo[module] = _module_alias(ctx, module)
    return memo[module]


def _module_alias(ctx: ModuleView, module: str) -> str | None:
    scope = ctx.index.scopes[ctx.index.tree]
    best = None
    for name, bindings in scope.bindings.items():
        if len(bindings) != 1 and not all(  # `import jax` + `import jax.extend.core`: one `jax`
            x.kind == "import" and x.qualname == bindings[0].qualname for x in bindings
        ):
            continue
        b = bindings[0]
        if b.kind == "import" and b.qualname == module:
            if isinstance(b.node, ast.Import) and "." in module:
                # `import jax.numpy` binds `jax`, not `jax.numpy`; handled by dotted access below
                if not any(a.asname == name for a in b.node.names):
                    continue
            best = name if best is None or name == PREFERRED_ALIAS.get(module) else best
    if best is None and "." in module:
        # `import jax` makes `jax.numpy` reachable as an attribute; `jax.extend` and
        # `jax.experimental` submodules need their own `import jax.extend.core` (facts §0.11)
        head, _, rest = module.partition(".")
        needs_own_import = module.startswith(("jax.extend", "jax.experimental"))
        if not needs_own_import or _imported_dotted(ctx, module):
            head_alias = module_alias(ctx, head)
            if head_alias == head:
                return f"{head_alias}.{rest}"
    return best


def _imported_dotted(ctx: ModuleView, module: str) -> bool:
    for stmt in ctx.index.tree.body:
        if isinstance(stmt, ast.Import) and any(
            a.asname is None and a.name == module for a in stmt.names
        ):
            return True
    return False


def import_position(ctx: ModuleView, module: str | None = None) -> Position:
    """Where a new top-level import of `module` goes: where imports go, as isort groups them.

    After the last leading import of the same package (`import jax` beside `from jax import
    jit`); else before the first local (relative) import, since a third-party import belongs
    above the project's own (it was appended after `from .model import net`); else after the
    last leading import, else after the docstring (and `__future__` imports)."""
    body = ctx.index.tree.body
    line = 1
    same: int | None = None
    local: ast.stmt | None = None
    top = module.split(".")[0] if module else None
    for i, stmt in enumerate(body):
        is_doc = (
            i == 0
            and isinstance(stmt, ast.Expr)
            and isinstance(stmt.value, ast.Constant)
            and isinstance(stmt.value.value, str)
        )
        if is_doc or isinstance(stmt, (ast.Import, ast.ImportFrom)):
            end = (stmt.end_lineno or stmt.lineno) + 1
            line = end
            if top and _imports_package(stmt, top):
                same = end
            if local is None and isinstance(stmt, ast.ImportFrom) and stmt.level > 0:
                local = stmt
            continue
        if isinstance(stmt, ast.If) and _is_type_checking(stmt):
            continue
        break
    if same is not None:
        return Position(same, 0)
    if top and local is not None:
        at = local.lineno
        while at > 1 and ctx.source.line(at - 1).lstrip().startswith("#"):
            at -= 1  # above the comment that heads the local block (`# project modules`)
        return Position(at, 0)
    return Position(line, 0)


def _imports_package(stmt: ast.stmt, top: str) -> bool:
    """`import jax.numpy as jnp` / `from jax import jit` import from package `jax`."""
    if isinstance(stmt, ast.Import):
        return any(a.name.split(".")[0] == top for a in stmt.names)
    return (
        isinstance(stmt, ast.ImportFrom)
        and stmt.level == 0
        and (stmt.module or "").split(".")[0] == top
    )


def _is_type_checking(stmt: ast.If) -> bool:
    return isinstance(stmt.test, (ast.Name, ast.Attribute)) and "TYPE_CHECKING" in ast.dump(
        stmt.test
    )


def name_is_free(ctx: ModuleView, name: str) -> bool:
    """No scope of the module binds `name` (the set of bound names is made once per index)."""
    bound = ctx.index.__dict__.get("_jl_bound_names")
    if bound is None:
        bound = ctx.index.__dict__["_jl_bound_names"] = frozenset(
            n for s in ctx.index.scopes.values() for n in s.bindings
        )
    return name not in bound


def ensure_module(ctx: ModuleView, module: str) -> tuple[str, list[Edit]]:
    """Text that names `module` here, plus the edits (an import) needed to make it valid.

    A direct alias (`jnp`) is reused; otherwise the conventional alias is imported when the
    name is free; otherwise the module is spelled through its parent (`jax.numpy`).
    """
    alias = module_alias(ctx, module)
    preferred = PREFERRED_ALIAS.get(module, "")
    if alias is not None and (
        "." not in alias or not preferred or not name_is_free(ctx, preferred)
    ):
        return alias, []
    if alias is not None and alias != f"{alias.split('.')[0]}.{module.partition('.')[2]}":
        return alias, []
    nl = ctx.source.newline
    pos = import_position(ctx, module)
    prefix = ""
    if pos.line > ctx.source.line_count or (
        pos.line == ctx.source.line_count and not ctx.source.text.endswith(("\n", "\r"))
    ):
        # inserting at the very end of a file without a final newline
        pos = Position(ctx.source.line_count, len(ctx.source.line(ctx.source.line_count)))
        prefix = nl
    if preferred and name_is_free(ctx, preferred):
        alias = f" as {preferred}" if preferred != module else ""
        return preferred, [Edit(pos, pos, f"{prefix}import {module}{alias}{nl}")]
    head = module.split(".")[0]
    existing = module_alias(ctx, head) if head != module else None
    if existing == head or name_is_free(ctx, head):
        return module, [Edit(pos, pos, f"{prefix}import {module}{nl}")]
    raise LookupError(f"cannot import {module}: the name `{head}` is taken")


def spell(ctx: ModuleView, qualname: str) -> tuple[str, list[Edit]]:
    """Text for a dotted JAX name (`jax.tree.map`) with an import when needed."""
    module, _, attr = qualname.rpartition(".")
    # prefer the shortest existing alias among the name's parent modules
    parts = qualname.split(".")
    special = qualname.startswith(("jax.extend", "jax.experimental"))
    for cut in range(len(parts) - 1, 0, -1):
        mod = ".".join(parts[:cut])
        if special and cut < len(module.split(".")):
            break  # `jax.extend.core.X` cannot be reached through `jax`
        alias = module_alias(ctx, mod)
        if alias is not None:
            return ".".join([alias, *parts[cut:]]), []
    base, edits = ensure_module(ctx, module)
    return f"{base}.{attr}", edits
