"""JAX8xx: removed and deprecated APIs, with renames where the target is 1:1.

Each rule is a table of `Move`s (old qualified name -> what replaces it), checked against
JAX 0.10.2 (reference/jax-0.10-facts.md §2; `tests/test_deprecation_table.py` keeps the
targets honest against the installed JAX). References are found through `ctx.qualname`, so
aliases (`import jax.numpy as np`, `from jax import core`) are exact and never guessed.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace
from typing import ClassVar

from jaxlint.analysis.transforms import PARTIAL, literal_ints
from jaxlint.diagnostic import Edit, Position
from jaxlint.edits.imports import spell
from jaxlint.edits.rename import (
    argument_of,
    config_update,
    delete_statement,
    drop_keyword_name,
    environ_setting,
    expression_statement,
    has_star,
    import_text,
    insert_after_statement,
    keyword_node,
    keywordize,
    module_span_edit,
    name_argument,
    parenthesized,
    remove_alias,
    rename_keyword,
)
from jaxlint.jaxversion import JaxTarget, parse_version
from jaxlint.rules.base import Context, Examples, Rule

REMOVED_010 = "was removed in JAX 0.10.0"
DEPRECATED_011 = "is deprecated (removed in JAX 0.11)"
SAFETY_RANK = {"safe": 0, "unsafe": 1, None: 2}


@dataclass(frozen=True)
class Move:
    """What replaces an old name.

    `new`: the new qualified name (spelled with import management), or None (no 1:1
    replacement: report only, `note` says what to do). `safety`: of the rewrite ("safe",
    "unsafe", or None for report-only). `expr`: replacement expression with `{new}` (e.g.
    `-{new}` for `jnp.NINF`). `call`: name of a rule method that rewrites the whole call
    (argument changes). `module`: old and new are modules (`import old as x` is rewritten).

    Versions (strings such as "0.11.1"; a trailing "?" means "at the latest": only bounded by
    the releases checked, see reference/jax-0.12-facts.md): `deprecated` / `removed`: when the
    old name started warning / stopped working (None: before every JAX jaxlint supports);
    the finding fires only for targets that reach one of them. `since` / `until`: the
    replacement exists from `since` and before `until`; the fix is safe only when every
    target JAX has it. `fallback`: the advice when no target JAX has the replacement.
    """

    new: str | None = None
    safety: str | None = "safe"
    note: str = ""
    expr: str | None = None
    call: str | None = None
    status: str | None = None
    module: bool = False
    deprecated: str | None = None
    removed: str | None = None
    since: str | None = None
    until: str | None = None
    fallback: str = ""
    introduced: str | None = None  # the old name itself appeared in this JAX (tests only)

    @property
    def per_use(self) -> bool:
        """Rewritten where it is used (not at a `from ... import`)."""
        return self.expr is not None or self.call is not None

    def shown(self) -> str:
        if self.new is None:
            return ""
        return self.expr.format(new=self.new) if self.expr else self.new

    @property
    def first(self) -> str | None:
        """The first version where the old name warns or fails (None: every version)."""
        found = [v for v in (self.deprecated, self.removed) if v]
        if not found:
            return None
        return min(found, key=lambda v: parse_version(v.rstrip("?")))


def _when(version: str) -> str:
    return f"by JAX {version[:-1]}" if version.endswith("?") else f"in JAX {version}"


def for_target(move: Move, target: JaxTarget, default_status: str) -> Move | None:
    """The move as it applies to `target`: None when no target JAX deprecates or removes the
    old name yet; otherwise with its status naming the version, and its fix downgraded (or
    dropped, advice kept) when some (every) target JAX lacks the replacement."""
    if not target.reaches(move.first):
        return None
    status = move.status
    if move.removed and target.reaches(move.removed):
        status = f"was removed {_when(move.removed)}"
    elif move.deprecated and target.reaches(move.deprecated):
        since = "" if move.deprecated == "0.6" else f" since JAX {move.deprecated.rstrip('?')}"
        status = f"is deprecated{since}"
        if move.removed:
            status += f" (removed {_when(move.removed)})"
    if move.new is None or not move.new.startswith("jax"):
        return replace(move, status=status or default_status)
    have = target.availability(move.since, move.until)
    if move.until and target.reaches(move.until):
        have = None  # the replacement is itself gone from the newest target JAX
    if have is None:
        needs = (
            f"`{move.new}` exists only in JAX {move.since or '0.6'}-{move.until}"
            if move.until
            else f"`{move.new}` needs JAX {move.since}"
        )
        note = move.fallback or f"{needs}; the target is JAX {target.text()}"
        return replace(move, new=None, safety=None, note=note, status=status or default_status)
    if have == "unsafe":
        span = f"JAX {move.since or '0.6'}+" if not move.until else f"JAX < {move.until}"
        note = f"{move.note}; " if move.note else ""
        return replace(
            move,
            safety="unsafe" if move.safety else None,
            note=f"{note}`{move.new}` needs {span}, not every target JAX ({target.text()}) has it",
            status=status or default_status,
        )
    return replace(move, status=status or default_status)


def _move(value: Move | tuple) -> Move:
    if isinstance(value, Move):
        return value
    new, safety, note = value
    return Move(new, safety if new else None, note)


@dataclass
class _ImportRecord:
    stmt: ast.Import | ast.ImportFrom
    alias: ast.alias
    old: str
    move: Move
    local: str | None  # the name the import binds to `old`; None for `import a.b.c`


class RenameRule(Rule):
    """Base for rules whose findings are references to an old dotted name.

    `RENAMES` maps the old qualified name to a `Move` (or `(new, safety, note)`). Attribute
    references (`jax.tree_map`) are rewritten in place. Names brought in by `from X import
    old` are fixed at the import when the move is a plain rename; moves that need an
    expression or argument changes are fixed at every use, and the import is removed once
    nothing uses it (the fix loop reaches that in its next round). Imports of removed modules
    are removed when unused.
    """

    RENAMES: ClassVar[dict[str, Move | tuple]] = {}
    message = "`{old}` {status}; {advice}"
    silent_in_compat_code = True
    status: ClassVar[str] = "was removed from JAX"
    _moves: ClassVar[dict[str, Move]] = {}
    _module_moves: ClassVar[tuple[str, ...]] = ()

    DEPRECATED: ClassVar[str | None] = None  # defaults for entries that give no versions
    REMOVED: ClassVar[str | None] = None
    _by_target: ClassVar[dict[str, tuple[dict[str, Move], tuple[str, ...]]]] = {}

    def __init_subclass__(cls, **kw: object) -> None:
        super().__init_subclass__(**kw)
        moves = {old: _move(v) for old, v in cls.RENAMES.items()}
        cls._moves = {
            old: replace(
                m, deprecated=m.deprecated or cls.DEPRECATED, removed=m.removed or cls.REMOVED
            )
            for old, m in moves.items()
        }
        cls._module_moves = tuple(old for old, m in cls._moves.items() if m.module)
        cls._by_target = {}

    @classmethod
    def moves_for(cls, target: JaxTarget) -> tuple[dict[str, Move], tuple[str, ...]]:
        """The table as it applies to `target` (entries no target JAX deprecates are gone)."""
        found = cls._by_target.get(target.key())
        if found is None:
            moves = {}
            for old, m in cls._moves.items():
                t = for_target(m, target, cls.status)
                if t is not None:
                    moves[old] = t
            found = (moves, tuple(old for old, m in moves.items() if m.module))
            cls._by_target[target.key()] = found
        return found

    def __init__(self, ctx: Context, sink: list) -> None:
        super().__init__(ctx, sink)
        self._moves, self._module_moves = self.moves_for(ctx.target)  # type: ignore[misc]
        self._imports: list[_ImportRecord] = []
        self._watch: set[str] = set()
        self._uses: dict[tuple[int, str], list[ast.AST]] = {}
        self._dotted_uses: dict[str, int] = {}

    # -- lookups --------------------------------------------------------------------------
    def move_for(self, q: str | None) -> Move | None:
        if q is None:
            return None
        found = self._moves.get(q)
        if found is not None:
            return found
        for old in self._module_moves:
            if q.startswith(old + "."):
                m = self._moves[old]
                return replace(m, new=m.new + q[len(old) :] if m.new else None, module=False)
        return self.dynamic_move(q)

    def _module_prefix(self, module: str) -> str | None:
        for old in self._module_moves:
            if module == old or module.startswith(old + "."):
                return old
        return None

    def dynamic_move(self, q: str) -> Move | None:
        """Pattern-based entries (`jax.core.pp_*`)."""
        return None

    def use_safety(self, move: Move, node: ast.AST, ctx: Context) -> str | None:
        """Safety of rewriting this reference (context-dependent rules override)."""
        return move.safety

    def advice(self, move: Move) -> str:
        if move.new is None:
            return move.note or "there is no drop-in replacement"
        text = f"use `{move.shown()}`"
        return f"{text} ({move.note})" if move.note else text

    def _message(self, old: str, move: Move) -> dict[str, str]:
        return {"old": old, "status": move.status or self.status, "advice": self.advice(move)}

    # -- visitors -------------------------------------------------------------------------
    def visit_Module(self, node: ast.Module, ctx: Context) -> None:
        for scope in ctx.index.scopes.values():
            for name, bindings in scope.bindings.items():
                if any(b.kind == "import" and self.move_for(b.qualname) for b in bindings):
                    self._watch.add(name)

    def visit_Name(self, node: ast.Name, ctx: Context) -> None:
        if node.id not in self._watch or not isinstance(node.ctx, ast.Load):
            return
        scope = ctx.index.scope_of(node)
        for found in ctx.index.lookup(node.id, scope) or ():
            if found.kind == "import":  # every import the name may come from is in use
                self._uses.setdefault((id(found.node), node.id), []).append(node)
        b = ctx.index.binding(node.id, scope)
        if b is None or b.kind != "import":
            return
        move = self.move_for(b.qualname)
        parent = getattr(node, "jl_parent", None)
        if move is not None and move.per_use and not isinstance(parent, ast.Attribute):
            self._report(node, b.qualname, move, ctx)  # type: ignore[arg-type]

    def visit_Attribute(self, node: ast.Attribute, ctx: Context) -> None:
        if not isinstance(node.ctx, ast.Load):
            return
        q = ctx.qualname(node)
        if q is None:
            return
        move = self._moves.get(q) or self.dynamic_move(q)
        if move is None:
            return
        self._dotted_uses[q] = self._dotted_uses.get(q, 0) + 1
        parent = getattr(node, "jl_parent", None)
        if isinstance(parent, ast.Attribute) and parent.value is node:
            pq = ctx.qualname(parent)
            if pq in self._moves or (pq and self.dynamic_move(pq)):
                return  # the longer chain is the reference
        self._report(node, q, move, ctx)

    def visit_Import(self, node: ast.Import, ctx: Context) -> None:
        for alias in node.names:
            move = self.move_for(alias.name)
            if move is not None:
                self._imports.append(_ImportRecord(node, alias, alias.name, move, alias.asname))

    def visit_ImportFrom(self, node: ast.ImportFrom, ctx: Context) -> None:
        if node.level or not node.module:
            return
        prefix = self._module_prefix(node.module)
        if (
            prefix is not None
            and self._moves[prefix].new
            and not any(f"{node.module}.{a.name}" in self._moves for a in node.names)
        ):
            # `from jax.linear_util import wrap_init` -> `from jax.extend.linear_util import ...`
            move = self._moves[prefix]
            edit = module_span_edit(ctx, node, move.new + node.module[len(prefix) :])  # type: ignore[operator]
            fix = None
            if edit is not None and move.safety:
                fix = self.fix(edit, safety=move.safety, message=f"Import from `{move.new}`")
            self.report(node, fix=fix, **self._message(prefix, move))
            return
        for alias in node.names:
            if alias.name == "*":
                continue
            q = f"{node.module}.{alias.name}"
            move = self.move_for(q)
            if move is not None:
                self._imports.append(
                    _ImportRecord(node, alias, q, move, alias.asname or alias.name)
                )

    def finish(self) -> None:
        ctx = self.ctx
        for rec in self._imports:
            shim = import_shim(rec.stmt)
            if shim == "fallback":
                continue  # `except ImportError:` branch: runs only on old JAX
            fix = None if shim else self._import_fix(rec, ctx)
            self.report(rec.stmt, fix=fix, **self._message(rec.old, rec.move))

    # -- fixes ------------------------------------------------------------------------------
    def _import_fix(self, rec: _ImportRecord, ctx: Context):  # noqa: ANN202
        move, stmt = rec.move, rec.stmt
        uses = self._uses.get((id(stmt), rec.local), []) if rec.local else []
        if rec.local is None:  # `import a.b.c` binds `a`: count dotted references instead
            remaining = self._dotted_uses.get(rec.old, 0)
        else:
            remaining = len(uses)
        if move.new is not None and not move.per_use:
            safety: str | None = "safe"  # an unused import is safe to rewrite
            for use in uses:
                s = self.use_safety(move, use, ctx)
                safety = s if SAFETY_RANK[s] > SAFETY_RANK[safety] else safety
            if safety is None:
                return None
            from_form = isinstance(stmt, ast.ImportFrom) or not move.module
            if isinstance(stmt, ast.Import) and rec.local is None:
                text = f"import {move.new}"  # binds the same head name
                if not move.module:
                    return None
            else:
                text = import_text(move.new, rec.local, from_form=from_form)
            if len(stmt.names) == 1:
                edits = [ctx.replace(stmt, text)]
            else:
                edits = [
                    remove_alias(ctx, stmt, rec.alias),
                    insert_after_statement(ctx, stmt, text),
                ]
            return self.fix(*edits, safety=safety, message=f"Import `{move.new}`")
        if remaining or reexported(ctx, rec.local or rec.old.split(".")[0], rec.alias):
            return None  # the uses are fixed first; the import goes in the next round
        if rec.local is None:
            head = rec.old.split(".")[0]
            others = [
                b
                for b in ctx.index.lookup(head, ctx.index.scope_of(stmt)) or []
                if b.node is not stmt
            ]
            if not others and len(stmt.names) == 1:
                return self.fix(
                    ctx.replace(stmt, f"import {head}"), safety="safe", message="Remove the import"
                )
            if not others:
                return None
        return self.fix(
            remove_alias(ctx, stmt, rec.alias), safety="safe", message="Remove the import"
        )

    def _report(self, node: ast.AST, q: str, move: Move, ctx: Context) -> None:
        fix = None
        safety = self.use_safety(move, node, ctx) if move.new is not None else None
        if safety is not None:
            try:
                fix = self._use_fix(node, move, safety, ctx)
            except LookupError:
                fix = None
        self.report(node, fix=fix, **self._message(q, move))

    def _use_fix(self, node: ast.AST, move: Move, safety: str, ctx: Context):  # noqa: ANN202
        assert move.new is not None
        if not move.new.startswith("jax"):
            text, edits = move.new, []  # a literal (`-0.0`) or an argument (`tie_in` -> `b`)
        elif move.module:
            text, edits = self.spell_module(ctx, move.new)
        else:
            text, edits = spell(ctx, move.new)
        if move.call:
            done = getattr(self, move.call)(ctx, node, text)
            if done is None:
                return None
            call_edits, call_safety = done
            worst = call_safety if SAFETY_RANK[call_safety] > SAFETY_RANK[safety] else safety
            return self.fix(*call_edits, *edits, safety=worst, message=f"Use `{move.new}`")
        if move.expr:
            text = move.expr.format(new=text)
            if needs_parentheses(node):
                text = f"({text})"
        return self.fix(
            ctx.replace(node, text), *edits, safety=safety, message=f"Use `{move.shown()}`"
        )

    def spell_module(self, ctx: Context, module: str) -> tuple[str, list[Edit]]:
        """A module target: `import jax.extend.linear_util` statements are rewritten by this
        rule in the same pass, so the new dotted name needs no import of its own then."""
        for stmt in ctx.index.tree.body:
            if isinstance(stmt, ast.Import) and any(
                a.asname is None and self._moves.get(a.name, Move()).new == module
                for a in stmt.names
            ):
                return module, []
        from jaxlint.edits.imports import ensure_module

        return ensure_module(ctx, module)


# -- shared helpers ---------------------------------------------------------------------------

IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "AttributeError", "Exception"})


def import_shim(stmt: ast.stmt) -> str | None:
    """ "try" / "fallback" when `stmt` sits in a `try` body or handler that catches import
    errors (a version-compatibility shim), else None."""
    child: ast.AST = stmt
    parent = getattr(stmt, "jl_parent", None)
    while parent is not None and not isinstance(parent, ast.Module):
        if isinstance(parent, ast.ExceptHandler) and _catches_import_error(parent):
            return "fallback"
        if isinstance(parent, ast.Try) and child in parent.body:
            if any(_catches_import_error(h) for h in parent.handlers):
                return "try"
        child, parent = parent, getattr(parent, "jl_parent", None)
    return None


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    t = handler.type
    if t is None:
        return True
    names = t.elts if isinstance(t, ast.Tuple) else [t]
    return any(isinstance(n, ast.Name) and n.id in IMPORT_ERRORS for n in names)


def reexported(ctx: Context, local: str, alias: ast.alias) -> bool:
    """Whether deleting the import could break `from this_module import local`."""
    if alias.asname is not None and alias.asname == alias.name:
        return True  # `import x as x`: the explicit re-export convention
    if ctx.path.endswith("__init__.py"):
        return True
    for stmt in ctx.index.tree.body:
        if (
            isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign))
            and "__all__"
            in ast.dump(stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target)
            and local in {c.value for c in ast.walk(stmt) if isinstance(c, ast.Constant)}
        ):
            return True
    return False


def call_of(ref: ast.AST) -> ast.Call | None:
    """The call `ref(...)` when `ref` is its callee."""
    parent = getattr(ref, "jl_parent", None)
    return parent if isinstance(parent, ast.Call) and parent.func is ref else None


def partial_of(ref: ast.AST, ctx: Context) -> ast.Call | None:
    """The call `partial(ref, ...)` when `ref` is its first argument."""
    parent = getattr(ref, "jl_parent", None)
    if (
        isinstance(parent, ast.Call)
        and parent.args
        and parent.args[0] is ref
        and ctx.qualname(parent.func) in PARTIAL
    ):
        return parent
    return None


def needs_parentheses(node: ast.AST) -> bool:
    """Whether an expression replacing `node` (e.g. `-jnp.inf`) must be parenthesized."""
    parent = getattr(node, "jl_parent", None)
    if isinstance(parent, (ast.Attribute, ast.Subscript)) and parent.value is node:
        return True
    if isinstance(parent, ast.Call) and parent.func is node:
        return True
    if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Pow) and parent.left is node:
        return True
    return isinstance(parent, ast.Await)


def in_annotation(node: ast.AST) -> bool:
    cur, parent = node, getattr(node, "jl_parent", None)
    while isinstance(parent, (ast.Subscript, ast.Tuple, ast.BinOp, ast.Attribute, ast.List)):
        cur, parent = parent, getattr(parent, "jl_parent", None)
    if isinstance(parent, ast.arg):
        return parent.annotation is cur
    if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return parent.returns is cur
    if isinstance(parent, ast.AnnAssign):
        return parent.annotation is cur
    return False


def in_isinstance(node: ast.AST, ctx: Context) -> bool:
    cur, parent = node, getattr(node, "jl_parent", None)
    if isinstance(parent, ast.Tuple):
        cur, parent = parent, getattr(parent, "jl_parent", None)
    return (
        isinstance(parent, ast.Call)
        and len(parent.args) == 2
        and parent.args[1] is cur
        and ctx.qualname(parent.func) in ("isinstance", "issubclass")
    )


def end_of_arguments(ctx: Context, call: ast.Call) -> Position | None:
    """Where `, extra=...` goes: after the last argument."""
    last = [*call.args, *call.keywords]
    if not last:
        return None
    return max((ctx.end(n) for n in last), default=None)


def _is_sharding_object(node: ast.AST, ctx: Context, depth: int = 0) -> bool:
    """A `Sharding` instance by construction (`NamedSharding(...)`), or a tuple of them."""
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(_is_sharding_object(e, ctx, depth) for e in node.elts)
    if isinstance(node, ast.Call):
        return ctx.qualname(node.func) in SHARDING_CLASSES
    if isinstance(node, ast.Name) and depth < 3:
        b = ctx.index.binding(node.id, ctx.index.scope_of(node))
        if b is not None and b.kind == "assign" and b.value is not None:
            return _is_sharding_object(b.value, ctx, depth + 1)
    return False


SHARDING_CLASSES = frozenset(
    {
        "jax.sharding.NamedSharding",
        "jax.NamedSharding",
        "jax.sharding.SingleDeviceSharding",
    }
)

# =============================================================================================
# JAX801
# =============================================================================================


class RemovedTreeAliases(RenameRule):
    """Flags the removed `jax.tree_*` aliases.

    What it does: finds `jax.tree_map`, `jax.tree_leaves`, `jax.tree_flatten`,
    `jax.tree_unflatten`, `jax.tree_structure`, `jax.tree_transpose`, `jax.treedef_is_leaf`,
    `jax.tree_util.tree_multimap` and `jax.tree_util.build_tree`.
    Why is this bad: they were removed in JAX 0.6.0 (`tree_multimap` in 0.3.16,
    `build_tree` in 0.8.0): the code fails with
    `AttributeError: module 'jax' has no attribute 'tree_map'`.
    Example:
        grads = jax.tree_map(lambda g: g / n, grads)
    Use instead:
        grads = jax.tree.map(lambda g: g / n, grads)
    Fix: rename (safe: the signatures are identical); `build_tree` has none
    (`jax.tree.unflatten` takes its arguments differently).
    """

    code = "JAX801"
    name = "removed-tree-aliases"
    fix_safety = "safe"
    verifier = "import"
    REMOVED = "0.6"
    RENAMES = {
        "jax.tree_map": ("jax.tree.map", "safe", ""),
        "jax.tree_leaves": ("jax.tree.leaves", "safe", ""),
        "jax.tree_flatten": ("jax.tree.flatten", "safe", ""),
        "jax.tree_unflatten": ("jax.tree.unflatten", "safe", ""),
        "jax.tree_structure": ("jax.tree.structure", "safe", ""),
        "jax.tree_transpose": ("jax.tree.transpose", "safe", ""),
        "jax.treedef_is_leaf": ("jax.tree_util.treedef_is_leaf", "safe", ""),
        "jax.tree_util.tree_multimap": Move("jax.tree.map", removed="0.3.16"),
        "jax.tree_util.build_tree": Move(
            None,
            None,
            "build the tree with `jax.tree.unflatten(treedef, leaves)` (different argument convention)",
            deprecated="0.6",
            removed="0.8",
        ),
    }
    examples = Examples(
        invalid=(
            """
            import jax

            def sgd(params, grads, lr):
                return jax.tree_map(lambda p, g: p - lr * g, params, grads)  # error: JAX801
            """,
            """
            from jax import tree_leaves  # error: JAX801

            n = len(tree_leaves({"a": 1}))
            """,
            """
            import jax.tree_util as tu

            f = tu.tree_multimap  # error: JAX801
            """,
            """
            from jax import jit, tree_map  # error: JAX801

            g = jit(lambda t: tree_map(abs, t))
            """,
        ),
        valid=(
            """
            import jax

            leaves = jax.tree.leaves({"a": 1})
            y = jax.tree_util.tree_map(lambda v: v, leaves)
            """,
            """
            import optax

            tree_map = optax.tree_utils.tree_map_params
            """,
        ),
        fixes=(
            (
                """
                import jax

                y = jax.tree_map(lambda v: v * 2, {"a": 1})
                """,
                """
                import jax

                y = jax.tree.map(lambda v: v * 2, {"a": 1})
                """,
            ),
            (
                """
                from jax import tree_leaves

                n = len(tree_leaves({"a": 1}))
                """,
                """
                from jax.tree import leaves as tree_leaves

                n = len(tree_leaves({"a": 1}))
                """,
            ),
            (
                """
                from jax import jit, tree_map

                g = jit(lambda t: tree_map(abs, t))
                """,
                """
                from jax import jit
                from jax.tree import map as tree_map

                g = jit(lambda t: tree_map(abs, t))
                """,
            ),
        ),
    )


# =============================================================================================
# JAX802
# =============================================================================================

SHARD_MAP_OLD_PARAMS = ("f", "mesh", "in_specs", "out_specs", "check_vma")


class ExperimentalShardMap(RenameRule):
    """Flags `jax.experimental.shard_map.shard_map`.

    What it does: finds calls of the legacy `shard_map` (also through
    `from jax.experimental.shard_map import shard_map as sm`, a module alias, or
    `partial(shard_map, ...)`) and imports of the `jax.experimental.shard_map` module.
    Why is this bad: the module is deprecated since JAX 0.8.0 and warns on import; its
    `shard_map(f, mesh, in_specs, out_specs, check_rep=...)` is a shim over `jax.shard_map`,
    whose arguments after `f` are keyword-only and whose `check_rep` is now `check_vma`.
    `auto=` was removed in 0.8.0 (it raises TypeError).
    Example:
        from jax.experimental.shard_map import shard_map
        f = shard_map(body, mesh, P("i"), P("i"), check_rep=False)
    Use instead:
        f = jax.shard_map(body, mesh=mesh, in_specs=P("i"), out_specs=P("i"), check_vma=False)
    Fix: positional -> keyword arguments and `check_rep` -> `check_vma` (safe: the shim
    forwards exactly these to `jax.shard_map`); the import is removed once unused.
    `auto=A` -> `axis_names=set(mesh.axis_names) - A` (unsafe: what 0.7 computed, but the
    partially manual mode's semantics have evolved since).
    """

    code = "JAX802"
    name = "experimental-shard-map"
    fix_safety = "safe"
    verifier = "import"
    tier = 1
    templates = ("shard-map",)
    status = "is deprecated since JAX 0.8.0"
    DEPRECATED = "0.8"
    RENAMES = {
        "jax.experimental.shard_map.shard_map": Move(
            "jax.shard_map",
            "safe",
            "keyword arguments `mesh=`, `in_specs=`, `out_specs=`; `check_rep` is `check_vma`",
            call="_shard_map_call",
            since="0.6.1",
        ),
        "jax.experimental.shard_map": Move(
            None,
            None,
            "use `jax.shard_map`",
            module=True,
            status="only holds the deprecated `shard_map` (JAX 0.8.0)",
        ),
    }
    examples = Examples(
        invalid=(
            """
            import jax
            from jax.experimental.shard_map import shard_map as sm  # error: JAX802
            from jax.sharding import PartitionSpec as P

            mesh = jax.make_mesh((8,), ("batch",))


            def local_sum(x):
                return jax.lax.psum(x.sum(), "batch")


            total = sm(local_sum, mesh, in_specs=P("batch"), out_specs=P(), check_rep=False)  # error: JAX802
            """,
            """
            from functools import partial

            import jax
            import jax.experimental.shard_map as shmap  # error: JAX802
            from jax.sharding import PartitionSpec as P

            mesh = jax.make_mesh((8,), ("i",))


            @partial(shmap.shard_map, mesh=mesh, in_specs=P("i"), out_specs=P("i"))  # error: JAX802
            def double(x):
                return x * 2
            """,
        ),
        valid=(
            """
            import jax
            from jax.sharding import PartitionSpec as P

            mesh = jax.make_mesh((8,), ("i",))
            f = jax.shard_map(lambda x: x, mesh=mesh, in_specs=P("i"), out_specs=P("i"))
            """,
            """
            def shard_map(f, mesh, in_specs, out_specs):
                return f

            g = shard_map(abs, None, None, None)
            """,
        ),
        fixes=(
            (
                """
                import jax
                from jax.experimental.shard_map import shard_map
                from jax.sharding import PartitionSpec as P

                mesh = jax.make_mesh((8,), ("i",))
                f = shard_map(lambda x: x * 2, mesh, P("i"), P("i"), check_rep=False)
                """,
                """
                import jax
                from jax.sharding import PartitionSpec as P

                mesh = jax.make_mesh((8,), ("i",))
                f = jax.shard_map(lambda x: x * 2, mesh=mesh, in_specs=P("i"), out_specs=P("i"), check_vma=False)
                """,
            ),
            (
                """
                from functools import partial

                from jax.experimental.shard_map import shard_map as sm
                from jax.sharding import Mesh, PartitionSpec as P


                def build(mesh: Mesh):
                    @partial(sm, mesh=mesh, in_specs=P("i"), out_specs=P(), check_rep=False)
                    def total(x):
                        return x.sum()

                    return total
                """,
                """
                from functools import partial

                from jax.sharding import Mesh, PartitionSpec as P
                import jax


                def build(mesh: Mesh):
                    @partial(jax.shard_map, mesh=mesh, in_specs=P("i"), out_specs=P(), check_vma=False)
                    def total(x):
                        return x.sum()

                    return total
                """,
            ),
        ),
        unsafe_fixes=(
            (
                """
                import jax
                from jax.experimental.shard_map import shard_map

                mesh = jax.make_mesh((4, 2), ("data", "model"))
                f = shard_map(lambda x: x, mesh, jax.P("data"), jax.P("data"), auto=frozenset({"model"}))
                """,
                """
                import jax

                mesh = jax.make_mesh((4, 2), ("data", "model"))
                f = jax.shard_map(lambda x: x, mesh=mesh, in_specs=jax.P("data"), out_specs=jax.P("data"), axis_names=set(mesh.axis_names) - frozenset({"model"}))
                """,
            ),
        ),
    )

    def _shard_map_call(self, ctx: Context, ref: ast.AST, target: str):  # noqa: ANN202
        call = call_of(ref)
        if call is not None:
            if has_star(call) or not call.args or keyword_node(call, "f") is not None:
                return None
            edits = keywordize(ctx, call, SHARD_MAP_OLD_PARAMS, 1, {"check_rep": "check_vma"})
            mesh = argument_of(call, 1, "mesh")
            base = call
        else:
            base = partial_of(ref, ctx)
            if base is None or has_star(base) or len(base.args) > 1:
                return None
            kw = keyword_node(base, "check_rep")
            edits = [rename_keyword(ctx, kw, "check_vma")] if kw is not None else []
            mesh = argument_of(base, 99, "mesh")
        if edits is None:
            return None
        safety = "safe"
        auto = keyword_node(base, "auto")
        if auto is not None:
            if not isinstance(mesh, (ast.Name, ast.Attribute)):
                return None
            edits.append(
                Edit(
                    ctx.start(auto),
                    ctx.end(auto.value),
                    f"axis_names=set({ctx.text(mesh)}.axis_names) - {parenthesized(ctx, auto.value)}",
                )
            )
            safety = "unsafe"
        edits.append(ctx.replace(ref, target))
        return edits, safety


# =============================================================================================
# JAX803
# =============================================================================================

PJIT_PARAMS = (
    "fun",
    "in_shardings",
    "out_shardings",
    "static_argnums",
    "static_argnames",
    "donate_argnums",
    "donate_argnames",
    "keep_unused",
    "device",
    "backend",
    "inline",
    "compiler_options",
)
PJIT_REMOVED_KEYWORDS = frozenset(
    {"in_axis_resources", "out_axis_resources", "resource_env", "abstracted_axes"}
)


class ExperimentalPjit(RenameRule):
    """Flags `jax.experimental.pjit.pjit`.

    What it does: finds uses of `pjit` (calls, `partial(pjit, ...)`, `@pjit`).
    Why is this bad: `pjit` is deprecated since JAX 0.8.0 (DeprecationWarning); `jax.jit` has
    the same features. Two differences matter when migrating: `jax.jit` takes shardings as
    keywords only (`jax.jit(f, s)` is a TypeError), and `pjit` resolves bare
    `PartitionSpec`s (and `None`) through the `with mesh:` context, which `jax.jit` ignores
    (`RuntimeError: jit requires a non-empty mesh in context`; it needs `jax.set_mesh`).
    Example:
        step = pjit(train_step, in_shardings=NamedSharding(mesh, P("data")))
    Use instead:
        step = jax.jit(train_step, in_shardings=NamedSharding(mesh, P("data")))
    Fix: -> `jax.jit` (safe when every sharding is given by keyword as a `Sharding` object,
    or none is given; unsafe with positional shardings, `PartitionSpec`s, `None` or values
    it cannot see: those also need `with jax.set_mesh(mesh):`). `in_axis_resources=` and
    friends: none.
    """

    code = "JAX803"
    name = "experimental-pjit"
    fix_safety = "safe"
    verifier = "import"
    tier = 2
    templates = ("sharding",)
    status = "is deprecated since JAX 0.8.0"
    DEPRECATED = "0.8"
    RENAMES = {
        "jax.experimental.pjit.pjit": Move("jax.jit", "safe", call="_pjit_call"),
    }
    examples = Examples(
        invalid=(
            """
            import jax
            from jax.experimental.pjit import pjit  # error: JAX803
            from jax.sharding import NamedSharding, PartitionSpec as P

            mesh = jax.make_mesh((8,), ("data",))
            step = pjit(lambda x: x * 2, in_shardings=NamedSharding(mesh, P("data")))  # error: JAX803
            """,
            """
            import jax.experimental.pjit as pj


            @pj.pjit  # error: JAX803
            def f(x):
                return x + 1
            """,
        ),
        valid=(
            """
            import jax

            step = jax.jit(lambda x: x * 2)
            """,
            """
            from jax.experimental import pjit as pjit_module

            sharding_constraint = pjit_module.__name__
            """,
        ),
        fixes=(
            (
                """
                import jax
                from jax.experimental.pjit import pjit
                from jax.sharding import NamedSharding, PartitionSpec as P

                mesh = jax.make_mesh((8,), ("data",))
                data = NamedSharding(mesh, P("data"))
                step = pjit(lambda x: x * 2, in_shardings=data, out_shardings=data)
                """,
                """
                import jax
                from jax.sharding import NamedSharding, PartitionSpec as P

                mesh = jax.make_mesh((8,), ("data",))
                data = NamedSharding(mesh, P("data"))
                step = jax.jit(lambda x: x * 2, in_shardings=data, out_shardings=data)
                """,
            ),
        ),
        unsafe_fixes=(
            (
                """
                import jax
                from jax.experimental.pjit import pjit
                from jax.sharding import PartitionSpec as P

                step = pjit(lambda x: x * 2, P("data"), P("data"))
                """,
                """
                import jax
                from jax.sharding import PartitionSpec as P

                step = jax.jit(lambda x: x * 2, in_shardings=P("data"), out_shardings=P("data"))
                """,
            ),
        ),
    )

    def _pjit_call(self, ctx: Context, ref: ast.AST, target: str):  # noqa: ANN202
        call = call_of(ref)
        positional = False
        if call is not None:
            if has_star(call) or not call.args or keyword_node(call, "fun") is not None:
                return None
            edits = keywordize(ctx, call, PJIT_PARAMS, 1, {})
            if edits is None:
                return None
            base = call
            positional = len(call.args) > 1
            shardings = [
                argument_of(call, 1, "in_shardings"),
                argument_of(call, 2, "out_shardings"),
            ]
        else:
            base = partial_of(ref, ctx)
            if base is None:
                parent = getattr(ref, "jl_parent", None)
                decorated = isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef))
                if decorated and ref in parent.decorator_list:  # type: ignore[union-attr]
                    return [ctx.replace(ref, target)], "safe"
                return None
            if has_star(base) or len(base.args) > 1:
                return None
            edits = []
            shardings = [
                argument_of(base, 99, "in_shardings"),
                argument_of(base, 99, "out_shardings"),
            ]
        if any(kw.arg in PJIT_REMOVED_KEYWORDS for kw in base.keywords):
            return None
        exact = not positional and all(s is None or _is_sharding_object(s, ctx) for s in shardings)
        edits.append(ctx.replace(ref, target))
        return edits, "safe" if exact else "unsafe"


# =============================================================================================
# JAX804
# =============================================================================================


class RemovedModule(RenameRule):
    """Flags imports and uses of removed JAX modules.

    What it does: finds `jax.linear_util`, `jax.experimental.array_api`,
    `jax.abstract_arrays`, `jax.lib.xla_bridge`, `jax.lib.xla_client`,
    `jax.experimental.maps` (`xmap`, `Mesh`), `jax.experimental.host_callback`,
    `jax.experimental.shard`, `jax.util`, `jax.cloud_tpu_init` (removed in 0.11),
    `jax.experimental.shard_alike` (0.11.2) and `jax.experimental.control_deps` (0.11.1).
    Why is this bad: the modules are gone: importing them raises `ModuleNotFoundError`
    (`ImportError` for `from jax.lib import xla_client`), so nothing in the file runs.
    Example:
        import jax.linear_util as lu
        from jax.lib import xla_bridge
        backend = xla_bridge.get_backend()
    Use instead:
        import jax.extend.linear_util as lu
        import jax.extend.backend
        backend = jax.extend.backend.get_backend()
    Fix: rename + import where the target is 1:1 (`jax.extend.linear_util`,
    `jax.extend.backend.get_backend`, `jax.default_backend`, `jax.numpy` for the array API,
    `jax.sharding.Mesh`, `jax.sharding.reshard/auto_axes/explicit_axes`,
    `jax.core.ShapedArray`; safe); the import of a removed module is deleted once nothing
    uses it. `host_callback`, `xmap`, `xla_client`, `jax.util`, `shard_alike`,
    `control_deps`: none (the message says what replaces them, or that nothing does).
    """

    code = "JAX804"
    name = "removed-module"
    fix_safety = "safe"
    verifier = "import"
    tier = 1
    RENAMES = {
        "jax.linear_util": Move("jax.extend.linear_util", "safe", module=True),
        "jax.experimental.array_api": Move("jax.numpy", "safe", module=True),
        "jax.abstract_arrays": Move(None, None, "use `jax.core.ShapedArray`", module=True),
        "jax.abstract_arrays.ShapedArray": Move("jax.core.ShapedArray"),
        "jax.abstract_arrays.raise_to_shaped": Move(
            None, None, "no replacement: abstract values are already shaped"
        ),
        "jax.lib.xla_bridge": Move(
            None,
            None,
            "use `jax.extend.backend` / `jax.default_backend`",
            module=True,
            removed="0.10?",
        ),
        "jax.lib.xla_bridge.get_backend": Move(
            "jax.extend.backend.get_backend", deprecated="0.6", removed="0.10?"
        ),
        "jax.lib.xla_bridge.default_backend": Move("jax.default_backend"),
        "jax.lib.xla_bridge.process_index": Move("jax.process_index"),
        "jax.lib.xla_bridge.process_count": Move("jax.process_count"),
        "jax.lib.xla_client": Move(
            None,
            None,
            "use the public APIs (`jax.extend`, `Lowered.compiler_ir()`)",
            module=True,
            removed="0.10?",
        ),
        "jax.experimental.maps": Move(None, None, "use `jax.shard_map`", module=True),
        "jax.experimental.maps.Mesh": Move("jax.sharding.Mesh"),
        "jax.experimental.maps.xmap": Move(
            None, None, "use `jax.shard_map` or `jax.vmap(..., spmd_axis_name=...)`"
        ),
        "jax.experimental.host_callback": Move(
            None,
            None,
            "use `jax.debug.callback` / `jax.debug.print` / `jax.pure_callback`",
            module=True,
            removed="0.10?",
        ),
        "jax.experimental.host_callback.id_tap": Move(
            None,
            None,
            "use `jax.debug.callback(fn, x)` (it returns None: keep using `x`)",
            removed="0.10?",
        ),
        "jax.experimental.host_callback.id_print": Move(
            None, None, 'use `jax.debug.print("{}", x)` (it returns None: keep using `x`)'
        ),
        "jax.experimental.host_callback.call": Move(
            None,
            None,
            "use `jax.pure_callback(fn, result_shape, x)` (argument order differs)",
            removed="0.10?",
        ),
        "jax.experimental.shard": Move(
            None, None, "use `jax.sharding`", module=True, removed="0.10?"
        ),
        **{
            f"jax.experimental.shard.{n}": Move(f"jax.sharding.{n}", removed="0.10?", since="0.7")
            for n in ("reshard", "auto_axes", "explicit_axes")
        },
        "jax.util": Move(
            None,
            None,
            "use `functools`/`itertools` or your own helpers",
            module=True,
            removed="0.10?",
        ),
        "jax.cloud_tpu_init": Move(
            None, None, "remove the import", module=True, deprecated="0.10?", removed="0.11"
        ),
        "jax.experimental.shard_alike": Move(
            None,
            None,
            "JAX has no public replacement (let the compiler choose, or constrain both values "
            "with `jax.lax.with_sharding_constraint`)",
            module=True,
            removed="0.11.2",
        ),
        "jax.experimental.control_deps": Move(
            None,
            None,
            "it moved to `jax.experimental.overlap` in 0.11.1, which now exports only "
            "`program_order`; there is no drop-in replacement",
            module=True,
            removed="0.11.1",
            introduced="0.10",
        ),
    }
    examples = Examples(
        invalid=(
            """
            import jax.linear_util as lu  # error: JAX804

            f = lu.wrap_init(abs)
            """,
            """
            import jax
            from jax.lib import xla_bridge  # error: JAX804

            backend = xla_bridge.get_backend()  # error: JAX804
            print(jax.lib.xla_bridge.default_backend())  # error: JAX804
            """,
            """
            from jax.experimental import host_callback as hcb  # error: JAX804
            from jax.experimental.maps import Mesh, xmap  # error: JAX804, JAX804
            """,
            """
            from jax.experimental.array_api import sum as xsum  # error: JAX804
            """,
        ),
        valid=(
            """
            import jax.extend.linear_util as lu
            import jax.extend.backend

            backend = jax.extend.backend.get_backend()
            f = lu.wrap_init
            """,
            """
            import jax

            util = jax.tree_util
            lib = jax.lib
            """,
        ),
        fixes=(
            (
                """
                import jax.linear_util as lu

                f = lu.wrap_init(abs)
                """,
                """
                import jax.extend.linear_util as lu

                f = lu.wrap_init(abs)
                """,
            ),
            (
                """
                import jax
                from jax.lib import xla_bridge

                backend = xla_bridge.get_backend()
                name = xla_bridge.default_backend()
                """,
                """
                import jax
                import jax.extend.backend

                backend = jax.extend.backend.get_backend()
                name = jax.default_backend()
                """,
            ),
            (
                """
                from jax.linear_util import wrap_init, WrappedFun
                """,
                """
                from jax.extend.linear_util import wrap_init, WrappedFun
                """,
            ),
        ),
    )


# =============================================================================================
# JAX805
# =============================================================================================


class RemovedArrayTypes(RenameRule):
    """Flags removed array and key types.

    What it does: finds `jnp.DeviceArray`, `jax.interpreters.xla.DeviceArray`,
    `jax.interpreters.pxla.ShardedDeviceArray`, `jax.random.KeyArray`,
    `jax.random.PRNGKeyArray` and `jax.stages.OutInfo`, in annotations and elsewhere.
    Why is this bad: they were removed (0.4.14-0.7.0): the attribute access raises
    `AttributeError` at import or definition time. `jax.Array` is the one array type now.
    Example:
        def f(x: jnp.DeviceArray) -> jnp.DeviceArray: ...
        if isinstance(x, jnp.DeviceArray): ...
    Use instead:
        def f(x: jax.Array) -> jax.Array: ...
        if isinstance(x, jax.Array): ...
    Fix: in annotations -> `jax.Array` (`jax.ShapeDtypeStruct` for `OutInfo`; safe). In
    `isinstance` -> `jax.Array` (unsafe: tracers are `jax.Array` instances, the old
    `DeviceArray` excluded them). Key types in `isinstance`: none (use
    `jax.dtypes.issubdtype(x.dtype, jax.dtypes.prng_key)`).
    """

    code = "JAX805"
    name = "removed-array-types"
    fix_safety = "safe"
    verifier = "import"
    tier = 1
    # `safety` is what `isinstance` gets; annotations are always safe, other uses get none
    RENAMES = {
        "jax.numpy.DeviceArray": Move("jax.Array", "unsafe"),
        "jax.interpreters.xla.DeviceArray": Move("jax.Array", "unsafe"),
        "jax.interpreters.pxla.ShardedDeviceArray": Move("jax.Array", "unsafe"),
        "jax.random.KeyArray": Move(
            "jax.Array",
            None,
            "at run time test `jax.dtypes.issubdtype(x.dtype, jax.dtypes.prng_key)`",
        ),
        "jax.random.PRNGKeyArray": Move(
            "jax.Array",
            None,
            "at run time test `jax.dtypes.issubdtype(x.dtype, jax.dtypes.prng_key)`",
        ),
        "jax.stages.OutInfo": Move("jax.ShapeDtypeStruct", None, removed="0.10?"),
    }
    examples = Examples(
        invalid=(
            """
            import jax.numpy as np


            def scale(x: np.DeviceArray, s: float) -> np.DeviceArray:  # error: JAX805, JAX805
                return x * s
            """,
            """
            import jax
            import jax.numpy as jnp


            def is_array(x):
                return isinstance(x, (jnp.DeviceArray, list))  # error: JAX805


            def sample(key: jax.random.KeyArray):  # error: JAX805
                return jax.random.normal(key)
            """,
            """
            from jax.numpy import DeviceArray  # error: JAX805

            Batch = dict[str, DeviceArray]
            """,
        ),
        valid=(
            """
            import jax
            import numpy as np


            def scale(x: jax.Array, y: np.ndarray) -> jax.Array:
                return x * y
            """,
        ),
        fixes=(
            (
                """
                import jax.numpy as jnp


                def scale(x: jnp.DeviceArray, s: float) -> jnp.DeviceArray:
                    return x * s
                """,
                """
                import jax.numpy as jnp
                import jax


                def scale(x: jax.Array, s: float) -> jax.Array:
                    return x * s
                """,
            ),
            (
                """
                from jax.numpy import DeviceArray


                def f(x: DeviceArray) -> "DeviceArray":
                    return x
                """,
                """
                from jax import Array as DeviceArray


                def f(x: DeviceArray) -> "DeviceArray":
                    return x
                """,
            ),
        ),
        unsafe_fixes=(
            (
                """
                import jax
                import jax.numpy as jnp


                def is_array(x):
                    return isinstance(x, jnp.DeviceArray)
                """,
                """
                import jax
                import jax.numpy as jnp


                def is_array(x):
                    return isinstance(x, jax.Array)
                """,
            ),
        ),
    )

    def use_safety(self, move: Move, node: ast.AST, ctx: Context) -> str | None:
        if in_annotation(node):
            return "safe"
        if in_isinstance(node, ctx):
            return move.safety
        return None


# =============================================================================================
# JAX806
# =============================================================================================

_EXTEND_CORE_REMOVED = "Primitive ClosedJaxpr Jaxpr JaxprEqn Literal Var Token".split()
# removed from jax.core in 0.10; jax.extend.core has them from 0.10 (`call_impl` until 0.11.1)
_EXTEND_CORE_REMOVED_010 = (
    "mapped_aval unmapped_aval set_current_trace take_current_trace TraceTag call_impl "
    "subjaxprs AbstractToken"
).split()
_EXTEND_CORE_DEPRECATED = (
    "DebugInfo DropVar Effect Effects check_jaxpr concrete_or_error "
    "find_top_trace gensym get_opaque_trace_state jaxprs_in_params new_jaxpr_eqn no_effects "
    "primal_dtype_to_tangent_dtype valid_jaxtype"
).split()
_CALL_PRIMITIVE = (
    "JAX 0.11.1 removed `jax.extend.core.CallPrimitive` and `call_impl`: build the primitive "
    "with `jax.extend.core.create_call_primitive(name)` and "
    "`jax.extend.core.register_call_primitive_rules(prim, ...)` (a different API: port by hand)"
)
_CORE_DEPRECATED_NO_TARGET = (
    "nonempty_axis_env_DO_NOT_USE unsafe_am_i_under_a_jit_DO_NOT_USE "
    "unsafe_am_i_under_a_vmap_DO_NOT_USE unsafe_get_axis_names_DO_NOT_USE JaxprPpContext "
    "JaxprPpSettings OutputType abstract_token aval_mapping_handlers call "
    "concretization_function_error custom_typechecks is_concrete is_constant_dim "
    "is_constant_shape literalable_types no_axis_name trace_ctx"
).split()


class JaxCoreInternal(RenameRule):
    """Flags removed or deprecated `jax.core` names.

    What it does: finds `jax.core.Primitive`, `ClosedJaxpr`, `Jaxpr`, `JaxprEqn`, `Literal`,
    `Var`, `Token`, `get_aval`, `mapped_aval`, `TraceTag`, ... (removed), and the names that
    warn in 0.10.2 and go in 0.11 (`CallPrimitive`, `DebugInfo`, `new_jaxpr_eqn`, ...),
    through any alias (`from jax import core`, `import jax.core as jc`).
    Why is this bad: the removed names raise `AttributeError` (e.g. `jax.core.get_aval was
    deprecated in JAX v0.8.2 and removed in JAX v0.10.0; use jax.typeof instead`); the others
    emit `DeprecationWarning` and disappear in 0.11. Their home is `jax.extend.core` (or
    `jax.errors`), which `import jax` does not import.
    Example:
        import jax
        p = jax.core.Primitive("my_prim")
        aval = jax.core.get_aval(x)
    Use instead:
        import jax
        import jax.extend.core
        p = jax.extend.core.Primitive("my_prim")
        aval = jax.typeof(x)
    `jax.extend.core.CallPrimitive` / `call_impl` themselves were removed in 0.11.1.
    Fix: rename, adding `import jax.extend.core` where needed (safe when every target JAX
    has the new name: `jax.extend.core.X` exists from 0.10, `jax.errors.X` from 0.10.1). For
    `CallPrimitive` / `call_impl` on JAX >= 0.11.1: none (the message names
    `create_call_primitive` + `register_call_primitive_rules`, a different API). On JAX < 0.10
    the `jax.core` spelling is the only one and is not flagged.
    """

    code = "JAX806"
    name = "jax-core-internal"
    prefilter_words = ("core",)  # every `jax.core.*` reference names the module somewhere
    fix_safety = "safe"
    verifier = "import"
    tier = 2
    RENAMES = {
        **{f"jax.core.{n}": Move(f"jax.extend.core.{n}") for n in _EXTEND_CORE_REMOVED},
        **{
            f"jax.core.{n}": Move(f"jax.extend.core.{n}", removed="0.10", since="0.10")
            for n in _EXTEND_CORE_REMOVED_010
        },
        **{
            f"jax.core.{n}": Move(
                f"jax.extend.core.{n}", deprecated="0.10", removed="0.11", since="0.10"
            )
            for n in _EXTEND_CORE_DEPRECATED
        },
        **{
            f"jax.core.{n}": Move(
                None, None, "JAX has no public replacement", deprecated="0.10", removed="0.11"
            )
            for n in _CORE_DEPRECATED_NO_TARGET
        },
        "jax.core.pytype_aval_mappings": Move(
            None, None, "JAX has no public replacement", deprecated="0.10"
        ),
        "jax.core.CallPrimitive": Move(
            "jax.extend.core.CallPrimitive",
            deprecated="0.10",
            removed="0.11",
            since="0.10",
            until="0.11.1",
            fallback=_CALL_PRIMITIVE,
        ),
        "jax.core.call_impl": Move(
            "jax.extend.core.call_impl",
            removed="0.10",
            since="0.10",
            until="0.11.1",
            fallback=_CALL_PRIMITIVE,
        ),
        **{
            f"jax.extend.core.{n}": Move(
                None, None, _CALL_PRIMITIVE, removed="0.11.1", introduced="0.10"
            )
            for n in ("CallPrimitive", "call_impl")
        },
        "jax.core.get_aval": Move("jax.typeof", deprecated="0.8.2", removed="0.10"),
        "jax.core.traverse_jaxpr_params": Move(None, None, "no public replacement", removed="0.10"),
        "jax.core.raise_to_shaped": Move(
            None, None, "no replacement: abstract values are already shaped"
        ),
        "jax.core.ConcretizationTypeError": Move(
            "jax.errors.ConcretizationTypeError", deprecated="0.6", removed="0.10?"
        ),
        **{
            f"jax.core.{n}": Move(
                f"jax.errors.{n}", deprecated="0.10", removed="0.11", since="0.10.1"
            )
            for n in ("InconclusiveDimensionOperation", "JaxprTypeError")
        },
    }
    examples = Examples(
        invalid=(
            """
            import jax

            my_p = jax.core.Primitive("my_prim")  # error: JAX806


            def shape_of(x):
                return jax.core.get_aval(x).shape  # error: JAX806
            """,
            """
            from jax import core
            from jax.core import ClosedJaxpr, ShapedArray  # error: JAX806

            eqn = core.new_jaxpr_eqn  # error: JAX806
            """,
        ),
        valid=(
            """
            import jax
            import jax.extend.core
            from jax.core import ShapedArray

            my_p = jax.extend.core.Primitive("my_prim")
            aval = ShapedArray((3,), jax.numpy.float32)
            t = jax.typeof(1.0)
            """,
        ),
        fixes=(
            (
                """
                import jax

                my_p = jax.core.Primitive("my_prim")
                aval = jax.core.get_aval(1.0)
                """,
                """
                import jax
                import jax.extend.core

                my_p = jax.extend.core.Primitive("my_prim")
                aval = jax.typeof(1.0)
                """,
            ),
            (
                """
                from jax.core import Jaxpr, ShapedArray
                """,
                """
                from jax.core import ShapedArray
                from jax.extend.core import Jaxpr
                """,
            ),
        ),
    )

    def dynamic_move(self, q: str) -> Move | None:
        if q.startswith("jax.core.pp_"):
            return Move(None, None, "pretty-print with `str(jaxpr)` / `jaxpr.pretty_print()`")
        return None


# =============================================================================================
# JAX807
# =============================================================================================


class NumpyRemovedAliases(RenameRule):
    """Flags `jax.numpy` aliases that no longer exist.

    What it does: finds `jnp.NINF`, `NZERO`, `PZERO`, `Inf`, `NaN`, `infty`, `round_`,
    `product`, `cumproduct`, `alltrue`, `sometrue`, `row_stack`, `trapz`, `fix`, `in1d`,
    `msort`, `issubsctype` and `asfarray`, however `jax.numpy` is imported
    (`import jax.numpy as np` included); real NumPy is not touched.
    Why is this bad: each raises `AttributeError` in JAX 0.10.2 (`jnp.fix` since 0.10.0;
    `Inf`/`NaN`/`infty` never existed in `jax.numpy`: they are NumPy<2 spellings).
    Example:
        lo = jnp.NINF
        y = jnp.product(x, axis=0)
    Use instead:
        lo = -jnp.inf
        y = jnp.prod(x, axis=0)
    Fix: rename (safe). `in1d(a, b)` -> `isin(a, b).ravel()` and `msort(a)` ->
    `sort(a, axis=0)` (unsafe: the call is rewritten); `issubsctype` -> `issubdtype` (unsafe:
    it accepted arrays); `asfarray`: none (dtype policy differs).
    """

    code = "JAX807"
    name = "numpy-removed-aliases"
    fix_safety = "safe"
    verifier = "import"
    tier = 1
    RENAMES = {
        "jax.numpy.NINF": Move("jax.numpy.inf", expr="-{new}"),
        "jax.numpy.NZERO": Move("-0.0", expr="-0.0"),
        "jax.numpy.PZERO": Move("0.0", expr="0.0"),
        "jax.numpy.Inf": Move("jax.numpy.inf", note="never part of jax.numpy"),
        "jax.numpy.NaN": Move("jax.numpy.nan", note="never part of jax.numpy"),
        "jax.numpy.infty": Move("jax.numpy.inf", note="never part of jax.numpy"),
        "jax.numpy.round_": Move("jax.numpy.round"),
        "jax.numpy.product": Move("jax.numpy.prod"),
        "jax.numpy.cumproduct": Move("jax.numpy.cumprod"),
        "jax.numpy.alltrue": Move("jax.numpy.all"),
        "jax.numpy.sometrue": Move("jax.numpy.any"),
        "jax.numpy.row_stack": Move("jax.numpy.vstack"),
        "jax.numpy.trapz": Move("jax.numpy.trapezoid"),
        "jax.numpy.fix": Move("jax.numpy.trunc", removed="0.10"),
        "jax.numpy.in1d": Move(
            "jax.numpy.isin", "unsafe", call="_in1d_call", expr="{new}(a, b).ravel()"
        ),
        "jax.numpy.msort": Move(
            "jax.numpy.sort", "unsafe", call="_msort_call", expr="{new}(a, axis=0)"
        ),
        "jax.numpy.issubsctype": Move(
            "jax.numpy.issubdtype", "unsafe", note="it takes dtypes, not arrays"
        ),
        "jax.numpy.asfarray": Move(
            None, None, "use `jnp.asarray(x, dtype=...)` with the float dtype you want"
        ),
    }
    examples = Examples(
        invalid=(
            """
            import jax.numpy as np


            def masked_max(x, m):
                return np.where(m, x, np.NINF).max()  # error: JAX807
            """,
            """
            import jax.numpy as jnp
            from jax.numpy import product  # error: JAX807

            total = product(jnp.arange(1, 4))
            inside = jnp.in1d(jnp.arange(4), jnp.array([1, 2]))  # error: JAX807
            """,
        ),
        valid=(
            """
            import numpy as np
            import jax.numpy as jnp

            lo = np.inf
            a = jnp.prod(jnp.arange(3)) + jnp.trunc(1.5) - jnp.inf
            """,
        ),
        fixes=(
            (
                """
                import jax.numpy as np

                lo = np.NINF ** 2
                y = np.product(np.arange(1, 4)) + np.fix(1.5)
                """,
                """
                import jax.numpy as np

                lo = (-np.inf) ** 2
                y = np.prod(np.arange(1, 4)) + np.trunc(1.5)
                """,
            ),
            (
                """
                from jax.numpy import NINF, alltrue

                lo = NINF
                ok = alltrue([True])
                """,
                """
                from jax.numpy import all as alltrue
                import jax.numpy as jnp

                lo = -jnp.inf
                ok = alltrue([True])
                """,
            ),
        ),
        unsafe_fixes=(
            (
                """
                import jax.numpy as jnp

                inside = jnp.in1d(jnp.arange(4), jnp.array([1, 2]), invert=True)
                col_sorted = jnp.msort(jnp.ones((3, 2)))
                """,
                """
                import jax.numpy as jnp

                inside = jnp.isin(jnp.arange(4), jnp.array([1, 2]), invert=True).ravel()
                col_sorted = jnp.sort(jnp.ones((3, 2)), axis=0)
                """,
            ),
        ),
    )

    def _in1d_call(self, ctx: Context, ref: ast.AST, target: str):  # noqa: ANN202
        call = call_of(ref)
        if call is None or has_star(call):
            return None
        edits = [ctx.replace(ref, target), ctx.insert(ctx.end(call), ".ravel()")]
        for kw in call.keywords:
            if kw.arg in ("ar1", "ar2"):
                edits.append(
                    rename_keyword(ctx, kw, "element" if kw.arg == "ar1" else "test_elements")
                )
        return edits, "unsafe"

    def _msort_call(self, ctx: Context, ref: ast.AST, target: str):  # noqa: ANN202
        call = call_of(ref)
        if call is None or len(call.args) != 1 or call.keywords or has_star(call):
            return None
        return [ctx.replace(ref, target), ctx.insert(ctx.end(call.args[0]), ", axis=0")], "unsafe"


# =============================================================================================
# JAX808 (and the pmap options of JAX302)
# =============================================================================================

UNKNOWN = object()
# option -> the value JAX now always behaves as (UNKNOWN: the old behaviour is simply gone)
REMOVED_CONFIG: dict[str, object] = {
    "jax_array": True,
    "jax_jit_pjit_api_merge": True,
    "jax_enable_mlir": True,
    "jax_new_checkpoint": True,
    "jax_experimental_name_stack": True,
    "jax_ordered_effects": True,
    "jax_enable_memories": True,
    "jax_coordination_service": True,
    "jax_cpu_enable_gloo_collectives": True,
    "jax_dynamic_shapes": False,
    "jax_parallel_functions_output_gda": UNKNOWN,
    "jax_host_callback_inline": UNKNOWN,
    "jax_host_callback_outfeed": UNKNOWN,
    "jax_host_callback_legacy": UNKNOWN,
    "jax_spmd_mode": UNKNOWN,
    "jax_unique_mhlo_module_names": UNKNOWN,
    "jax_remat_opt_barrier": UNKNOWN,
    "jax_data_dependent_tracing_fallback": UNKNOWN,
    "jax_enable_custom_vjp_by_custom_transpose": UNKNOWN,
    "jax_exec_time_optimization_effort": UNKNOWN,
    "jax_memory_fitting_effort": UNKNOWN,
    "jax_refs_to_pins": UNKNOWN,
    "jax_pallas_use_mosaic_gpu": UNKNOWN,
    "jax_ragged_dot_use_gpu_pallas_triton_lowering": UNKNOWN,
}
# option -> the JAX that removed it ("?": at the latest); options not listed are gone from
# every JAX jaxlint supports (>= 0.6). Deleting the line is safe only when every target JAX
# lacks the option (on 0.6 `jax_pmap_shmap_merge=True` still selects another pmap).
CONFIG_REMOVED_IN: dict[str, str] = {
    "jax_cpu_enable_gloo_collectives": "0.10?",
    "jax_dynamic_shapes": "0.10?",
    "jax_enable_custom_vjp_by_custom_transpose": "0.10?",
    "jax_pmap_shmap_merge": "0.10",
    "jax_pmap_no_rank_reduction": "0.10",
    "jax_exec_time_optimization_effort": "0.11.1",
    "jax_memory_fitting_effort": "0.11.1",
    "jax_refs_to_pins": "0.12?",
    "jax_pallas_use_mosaic_gpu": "0.12?",
    "jax_ragged_dot_use_gpu_pallas_triton_lowering": "0.12",
}
CONFIG_ADVICE = {
    "jax_exec_time_optimization_effort": "set `jax_optimization_level` ('O0'...'O3') instead",
    "jax_memory_fitting_effort": "set `jax_memory_fitting_level` ('O0'...'O3') instead",
}
RENAMED_CONFIG = {"jax_enable_key_reuse_checks": "jax_debug_key_reuse"}
PMAP_CONFIG: dict[str, object] = {
    "jax_pmap_shmap_merge": True,
    "jax_pmap_no_rank_reduction": True,
    "jax_eager_pmap": True,
    "jax_sharding_in_pmap": UNKNOWN,
}


class ConfigOptions:
    """Mixin: `jax.config.update("<removed option>", v)` and `os.environ["JAX_<OPTION>"] = v`."""

    CONFIG: ClassVar[dict[str, object]] = {}
    RENAMED: ClassVar[dict[str, str]] = {}

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        found = config_update(ctx, node)
        if found is None:
            return
        option, value = found
        if option in self.RENAMED:
            new = self.RENAMED[option]
            fix = self.fix(  # type: ignore[attr-defined]
                ctx.replace(node.args[0], f'"{new}"'), safety="safe", message=f"Use `{new}`"
            )
            msg = f"config option `{option}` was renamed to `{new}` (`jax.config.update` raises `AttributeError: Unrecognized config option`)"
            self.report(node, msg, fix=fix)  # type: ignore[attr-defined]
            return
        if option not in self.CONFIG:
            return
        removed = CONFIG_REMOVED_IN.get(option)
        if not ctx.target.reaches(removed):
            return  # every target JAX still has the option
        permanent = self.CONFIG[option]
        stmt = expression_statement(node)
        fix = None
        if stmt is not None:
            literal = isinstance(value, ast.Constant) and value.value is permanent
            gone_everywhere = ctx.target.all_have(removed)
            safety = (
                "safe" if permanent is not UNKNOWN and literal and gone_everywhere else "unsafe"
            )
            fix = self.fix(delete_statement(ctx, stmt), safety=safety, message="Delete the line")  # type: ignore[attr-defined]
        now = (
            f"; JAX always behaves as `{option}={permanent}` now"
            if permanent is not UNKNOWN
            else "; the old behaviour cannot be selected any more"
        )
        if option in CONFIG_ADVICE:
            now += f"; {CONFIG_ADVICE[option]}"
        when = f" {_when(removed)}" if removed else ""
        msg = f"config option `{option}` was removed{when}: `jax.config.update` raises `AttributeError: Unrecognized config option`{now}; delete the line"
        self.report(node, msg, fix=fix)  # type: ignore[attr-defined]

    def _environ(self, node: ast.stmt, ctx: Context) -> None:
        var = environ_setting(ctx, node)
        if var is None or not var.startswith("JAX_"):
            return
        option = var.lower()
        if option not in self.CONFIG and option not in self.RENAMED:
            return
        if not ctx.target.reaches(CONFIG_REMOVED_IN.get(option)):
            return
        if option in self.RENAMED:
            msg = f"`{var}` is no longer read by JAX (the option was renamed to `{self.RENAMED[option]}`)"
            self.report(node, msg)  # type: ignore[attr-defined]
            return
        safety = "safe" if ctx.target.all_have(CONFIG_REMOVED_IN.get(option)) else "unsafe"
        fix = self.fix(delete_statement(ctx, node), safety=safety, message="Delete the line")  # type: ignore[attr-defined]
        msg = f"`{var}` is no longer read by JAX (config option `{option}` was removed); delete the setting"
        self.report(node, msg, fix=fix)  # type: ignore[attr-defined]

    def visit_Assign(self, node: ast.Assign, ctx: Context) -> None:
        self._environ(node, ctx)

    def visit_Expr(self, node: ast.Expr, ctx: Context) -> None:
        self._environ(node, ctx)


class RemovedConfigOption(ConfigOptions, Rule):
    """Flags removed `jax.config` options.

    What it does: finds `jax.config.update("jax_array", ...)` (and `jax_jit_pjit_api_merge`,
    `jax_enable_mlir`, `jax_dynamic_shapes`, `jax_enable_memories`, ... every option checked
    to be unrecognized by JAX 0.10.2; `jax_exec_time_optimization_effort`,
    `jax_memory_fitting_effort` (0.11.1), `jax_refs_to_pins`, `jax_pallas_use_mosaic_gpu`,
    `jax_ragged_dot_use_gpu_pallas_triton_lowering` (0.12) when the target JAX is that new),
    `os.environ["JAX_ARRAY"] = ...` settings, and the
    renamed `jax_enable_key_reuse_checks` (now `jax_debug_key_reuse`). The pmap options
    (`jax_pmap_shmap_merge`, ...) are JAX302's.
    Why is this bad: `jax.config.update` with a removed option raises
    `AttributeError: Unrecognized config option: jax_array` at start-up; an environment
    variable for it is silently ignored.
    Example:
        jax.config.update("jax_array", True)
    Use instead:
        (nothing: jax.Array is the only array type)
    Fix: delete the statement (safe when the value set is the behaviour JAX now always has,
    e.g. `jax_array=True`, and every target JAX lacks the option; unsafe otherwise: the old
    behaviour is gone, or an older target JAX still honours it). The renamed option is
    renamed (safe).
    """

    silent_in_compat_code = True
    code = "JAX808"
    name = "removed-config-option"
    message = "{detail}"
    fix_safety = "safe"
    verifier = "import"
    tier = 2
    CONFIG = REMOVED_CONFIG
    RENAMED = RENAMED_CONFIG
    prefilter_words = tuple(w for o in (*REMOVED_CONFIG, *RENAMED_CONFIG) for w in (o, o.upper()))
    examples = Examples(
        invalid=(
            """
            import os

            import jax
            from jax import config

            os.environ["JAX_JIT_PJIT_API_MERGE"] = "1"  # error: JAX808
            jax.config.update("jax_array", True)  # error: JAX808
            config.update("jax_enable_key_reuse_checks", True)  # error: JAX808
            """,
            """
            import jax

            jax.config.update("jax_exec_time_optimization_effort", 0.5)  # error: JAX808
            """,
        ),
        valid=(
            """
            import os

            import jax

            os.environ["JAX_PLATFORMS"] = "cpu"
            jax.config.update("jax_enable_x64", True)
            jax.config.update("jax_debug_key_reuse", True)
            """,
            """
            import jax

            # compatibility code: only old JAX runs this branch, where the option exists
            if jax.__version_info__ < (0, 5):
                jax.config.update("jax_dynamic_shapes", True)
            """,
        ),
        fixes=(
            (
                """
                import jax

                jax.config.update("jax_array", True)  # needed for old JAX
                jax.config.update("jax_enable_x64", True)
                jax.config.update("jax_jit_pjit_api_merge", True)
                jax.config.update("jax_enable_key_reuse_checks", True)
                """,
                """
                import jax

                jax.config.update("jax_enable_x64", True)
                jax.config.update("jax_debug_key_reuse", True)
                """,
            ),
        ),
        unsafe_fixes=(
            (
                """
                import jax

                jax.config.update("jax_array", False)
                x = 1
                """,
                """
                import jax

                x = 1
                """,
            ),
        ),
    )


# =============================================================================================
# JAX809
# =============================================================================================

_PXLA_DEPRECATED = (
    "Index MeshAxisName MeshExecutable global_aval_to_result_handler "
    "global_result_handlers op_sharding_to_indices ArrayMapping "
    "array_mapping_to_axis_resources"
).split()


class RemovedShardingApi(RenameRule):
    """Flags removed sharding APIs.

    What it does: finds `jax.sharding.PositionalSharding`, `GSPMDSharding`,
    `XLACompatibleSharding`, `jax.sharding.use_mesh`, `jax.experimental.PartitionSpec` and
    the `jax.interpreters.pxla` internals deprecated in 0.8.2 (`thread_resources`,
    `MeshExecutable`, ...; most removed in 0.11). The pmap-only ones (`PmapSharding`, `ShardingSpec`,
    `device_put_replicated`) are JAX302's.
    Why is this bad: the removed names raise `AttributeError`; the `pxla` ones warn and go
    in 0.11.
    Example:
        with jax.sharding.use_mesh(mesh):
            ...
        sharding = PositionalSharding(jax.devices()).reshape(4, 2)
    Use instead:
        with jax.set_mesh(mesh):
            ...
        sharding = NamedSharding(jax.make_mesh((4, 2), ("x", "y")), P("x", "y"))
    Fix: `use_mesh` -> `jax.set_mesh` and `jax.experimental.PartitionSpec` ->
    `jax.sharding.PartitionSpec` (safe); the rest none (device layouts must be redesigned
    as meshes).
    """

    code = "JAX809"
    name = "removed-sharding-api"
    fix_safety = "safe"
    verifier = "import"
    tier = 2
    RENAMES = {
        "jax.sharding.PositionalSharding": Move(
            None,
            None,
            "use `NamedSharding(mesh, P(...))` over a `jax.make_mesh` mesh",
            deprecated="0.6",
            removed="0.10?",
        ),
        "jax.sharding.GSPMDSharding": Move(
            None, None, "use `jax.sharding.NamedSharding`", deprecated="0.6", removed="0.10?"
        ),
        "jax.sharding.XLACompatibleSharding": Move(None, None, "use `jax.sharding.Sharding`"),
        "jax.sharding.use_mesh": Move("jax.set_mesh", removed="0.10?", since="0.7.1"),
        "jax.experimental.PartitionSpec": Move("jax.sharding.PartitionSpec"),
        **{
            f"jax.interpreters.pxla.{n}": Move(
                None, None, "no public replacement", deprecated="0.8.2", removed="0.11"
            )
            for n in _PXLA_DEPRECATED
        },
        **{
            f"jax.interpreters.pxla.{n}": Move(
                None,
                None,
                "no public replacement",
                deprecated="0.8.2",
                removed="0.11",
                introduced="0.10",
            )
            for n in ("are_hlo_shardings_equal", "is_hlo_sharding_replicated")
        },
        **{
            f"jax.interpreters.pxla.{n}": Move(
                None, None, "no public replacement", deprecated="0.8.2"
            )
            for n in ("MeshComputation", "global_avals_to_results_handler")
        },
        "jax.interpreters.pxla.thread_resources": Move(
            None,
            None,
            "enter the mesh with `jax.set_mesh(mesh)` and read `jax.sharding.get_abstract_mesh()`",
            deprecated="0.8.2",
        ),
    }
    examples = Examples(
        invalid=(
            """
            import jax
            from jax.sharding import PositionalSharding  # error: JAX809

            mesh = jax.make_mesh((8,), ("i",))
            with jax.sharding.use_mesh(mesh):  # error: JAX809
                pass
            """,
            """
            from jax.interpreters import pxla

            mesh = pxla.thread_resources.env.physical_mesh  # error: JAX809
            """,
        ),
        valid=(
            """
            import jax
            from jax.sharding import NamedSharding, PartitionSpec

            mesh = jax.make_mesh((8,), ("i",))
            with jax.set_mesh(mesh):
                s = NamedSharding(mesh, PartitionSpec("i"))
            """,
        ),
        fixes=(
            (
                """
                import jax
                from jax.experimental import PartitionSpec as P

                mesh = jax.make_mesh((8,), ("i",))
                with jax.sharding.use_mesh(mesh):
                    spec = P("i")
                """,
                """
                import jax
                from jax.sharding import PartitionSpec as P

                mesh = jax.make_mesh((8,), ("i",))
                with jax.set_mesh(mesh):
                    spec = P("i")
                """,
            ),
        ),
    )


# =============================================================================================
# JAX810
# =============================================================================================

_KEY_IMPLS = {"threefry2x32_key": "threefry2x32", "rbg_key": "rbg", "unsafe_rbg_key": "unsafe_rbg"}
_XLA_TRANSLATIONS = "register an MLIR lowering (`jax.interpreters.mlir.register_lowering`)"


class MovedOrRenamedFunction(RenameRule):
    """Flags functions that moved, were renamed, or lost their old spelling.

    What it does: finds `jax.experimental.enable_x64/disable_x64`,
    `jax.ad_checkpoint.checkpoint/remat`, `jax.lax.pvary`, `jax.lax.zeros_like_array`,
    `jax.lax.tie_in`, `jax.host_count/host_id`, `jax.experimental.pjit.with_sharding_constraint`,
    `jax.interpreters.xla.canonicalize_dtype`, `jax.random.threefry2x32_key/rbg_key/
    unsafe_rbg_key`, `jax.scipy.special.sph_harm`, and the ones without a drop-in
    (`jax.clear_backends`, `jax.xla_computation`, `jax.dlpack.to_dlpack`,
    `jax.interpreters.xla.translations`, `jax.scipy.special.lpmn`, ...), `jax.custom_remat`
    (only in 0.11), `jax.lax.psend` / `precv` (deprecated in 0.12) and `jax.lax.dce_sink_p`.
    Why is this bad: all but `host_count`/`host_id` (which warn) and `lpmn` (deprecated)
    raise `AttributeError` in JAX 0.10.2.
    Example:
        with jax.experimental.enable_x64():
            y = jax.ad_checkpoint.checkpoint(f)(x)
    Use instead:
        with jax.enable_x64(True):
            y = jax.checkpoint(f)(x)
    Fix: rename (safe), with the argument changes where the new function differs:
    `enable_x64()` -> `jax.enable_x64(True)`, `disable_x64()` -> `jax.enable_x64(False)`,
    `pvary(x, a)` -> `pcast(x, a, to="varying")`, `tie_in(a, b)` -> `b`,
    `threefry2x32_key(s)` -> `jax.random.key(s, impl="threefry2x32")` (safe; `jax.enable_x64`
    needs JAX 0.8 and `pcast` 0.8.2: for older targets no fix, the old spelling is right);
    `sph_harm(m, n, theta, phi)` -> `sph_harm_y(n, m, phi, theta)` (unsafe: degree/order and
    the two angles swap places, following SciPy; check your angle convention). The rest:
    none (the message names the replacement).
    """

    code = "JAX810"
    name = "moved-or-renamed-function"
    fix_safety = "safe"
    verifier = "import"
    tier = 2
    RENAMES = {
        "jax.experimental.enable_x64": Move(
            "jax.enable_x64", call="_x64_call", expr="{new}(True)", removed="0.10?", since="0.8"
        ),
        "jax.experimental.disable_x64": Move(
            "jax.enable_x64", call="_x64_call", expr="{new}(False)", removed="0.10?", since="0.8"
        ),
        "jax.ad_checkpoint.checkpoint": Move("jax.checkpoint", removed="0.10"),
        "jax.ad_checkpoint.remat": Move("jax.remat", removed="0.10"),
        "jax.lax.pvary": Move(
            "jax.lax.pcast",
            call="_pvary_call",
            expr='{new}(x, axis_name, to="varying")',
            removed="0.10",
            since="0.8.2",
        ),
        "jax.lax.zeros_like_array": Move("jax.numpy.zeros_like", removed="0.10"),
        "jax.lax.tie_in": Move(
            "b", call="_tie_in_call", expr="{new}", note="`tie_in(a, b)` is `b`"
        ),
        "jax.host_count": Move("jax.process_count", status="is a deprecated alias"),
        "jax.host_id": Move("jax.process_index", status="is a deprecated alias"),
        "jax.experimental.pjit.with_sharding_constraint": Move("jax.lax.with_sharding_constraint"),
        "jax.interpreters.xla.canonicalize_dtype": Move(
            "jax.dtypes.canonicalize_dtype", removed="0.10?"
        ),
        **{
            f"jax.random.{old}": Move(
                "jax.random.key", call="_impl_key_call", expr=f'{{new}}(seed, impl="{impl}")'
            )
            for old, impl in _KEY_IMPLS.items()
        },
        "jax.scipy.special.sph_harm": Move(
            "jax.scipy.special.sph_harm_y",
            "unsafe",
            "degree/order and the angles swap places",
            call="_sph_harm_call",
            expr="{new}(n, m, phi, theta)",
            removed="0.10",
        ),
        "jax.scipy.special.lpmn": Move(None, None, "no replacement is planned", deprecated="0.6"),
        "jax.scipy.special.lpmn_values": Move(
            None, None, "no replacement is planned", deprecated="0.6"
        ),
        "jax.clear_backends": Move(
            None,
            None,
            "use `jax.clear_caches()` (caches only) or `jax.extend.backend.clear_backends()`",
        ),
        "jax.xla_computation": Move(None, None, "use `jax.jit(f).lower(*args).compiler_ir('hlo')`"),
        "jax.dlpack.to_dlpack": Move(
            None,
            None,
            "pass the array itself: it implements `__dlpack__`",
            deprecated="0.6",
            removed="0.10?",
        ),
        "jax.random.default_prng_impl": Move(None, None, "read `jax.config.jax_default_prng_impl`"),
        **{
            f"jax.interpreters.xla.{n}": Move(
                None, None, "use `jax.typeof`", deprecated="0.6", removed="0.10?"
            )
            for n in ("abstractify", "pytype_aval_mappings")
        },
        "jax.interpreters.xla.xla_call_p": Move(None, None, "use `jax.jit`"),
        "jax.interpreters.xla.translations": Move(None, None, _XLA_TRANSLATIONS),
        "jax.interpreters.xla.backend_specific_translations": Move(None, None, _XLA_TRANSLATIONS),
        "jax.interpreters.ad.reducing_transposes": Move(
            None, None, "unused since JAX 0.4.38", removed="0.10"
        ),
        "jax.interpreters.batching.NotMapped": Move(
            None, None, "no public replacement", removed="0.10?"
        ),
        "jax.custom_remat": Move(
            None,
            None,
            "it existed only in JAX 0.11.x; use `jax.checkpoint` (or `jax.custom_vjp`)",
            removed="0.12",
            introduced="0.11",
        ),
        "jax.lax.dce_sink_p": Move(
            None,
            None,
            "an internal primitive; no public replacement",
            removed="0.11",
            introduced="0.10",
        ),
        **{
            f"jax.lax.{n}": Move(
                None,
                None,
                "JAX 0.12 names no replacement; pin JAX or restructure",
                deprecated="0.12",
                introduced="0.10",
            )
            for n in ("psend", "precv")
        },
    }
    examples = Examples(
        invalid=(
            """
            import jax
            from jax.experimental import enable_x64  # error: JAX810

            with enable_x64():  # error: JAX810
                y = jax.ad_checkpoint.checkpoint(jax.numpy.sin)(1.0)  # error: JAX810
            n = jax.host_count()  # error: JAX810
            """,
            """
            from jax import lax
            from jax.scipy.special import sph_harm  # error: JAX810


            def body(x):
                return lax.pvary(x, "i") * 2  # error: JAX810


            y = sph_harm(0, 1, 0.3, 0.7)  # error: JAX810
            """,
        ),
        valid=(
            """
            import jax

            with jax.enable_x64(True):
                y = jax.checkpoint(jax.numpy.sin)(1.0)
            n = jax.process_count()
            z = jax.lax.pcast(1.0, "i", to="varying") if False else 0
            """,
        ),
        fixes=(
            (
                """
                import jax
                from jax import lax

                with jax.experimental.enable_x64():
                    y = jax.ad_checkpoint.remat(jax.numpy.sin)(1.0)
                with jax.experimental.disable_x64():
                    k = jax.random.threefry2x32_key(0)


                def body(x, t):
                    return lax.pvary(x, "i") + lax.tie_in(t, x + 1)
                """,
                """
                import jax
                from jax import lax

                with jax.enable_x64(True):
                    y = jax.remat(jax.numpy.sin)(1.0)
                with jax.enable_x64(False):
                    k = jax.random.key(0, impl="threefry2x32")


                def body(x, t):
                    return lax.pcast(x, "i", to="varying") + (x + 1)
                """,
            ),
            (
                """
                from jax.ad_checkpoint import checkpoint
                from jax.experimental import enable_x64

                with enable_x64():
                    f = checkpoint(abs)
                """,
                """
                from jax import checkpoint
                import jax

                with jax.enable_x64(True):
                    f = checkpoint(abs)
                """,
            ),
        ),
        unsafe_fixes=(
            (
                """
                import jax.numpy as jnp
                import jax.scipy.special as jss

                m, n = jnp.array([1]), jnp.array([2])
                azimuth, polar = jnp.array([0.3]), jnp.array([0.7])
                y = jss.sph_harm(m, n, azimuth, polar, n_max=4)
                """,
                """
                import jax.numpy as jnp
                import jax.scipy.special as jss

                m, n = jnp.array([1]), jnp.array([2])
                azimuth, polar = jnp.array([0.3]), jnp.array([0.7])
                y = jss.sph_harm_y(n, m, polar, azimuth, n_max=4)
                """,
            ),
        ),
    )

    def _x64_call(self, ctx: Context, ref: ast.AST, target: str):  # noqa: ANN202
        call = call_of(ref)
        if call is None or has_star(call) or len(call.args) + len(call.keywords) > 1:
            return None
        enable = ctx.qualname(ref) == "jax.experimental.enable_x64"
        if call.keywords and call.keywords[0].arg != "new_val":
            return None
        given = call.args[0] if call.args else (call.keywords[0].value if call.keywords else None)
        if given is None:
            value = "True" if enable else "False"
        elif enable:  # `enable_x64(new_val=True)`
            value = ctx.text(given)
        else:
            return None  # `disable_x64()` took no arguments
        return [ctx.replace(call, f"{target}({value})")], "safe"

    def _pvary_call(self, ctx: Context, ref: ast.AST, target: str):  # noqa: ANN202
        call = call_of(ref)
        if call is None or has_star(call) or len(call.args) + len(call.keywords) != 2:
            return None
        end = end_of_arguments(ctx, call)
        return [ctx.replace(ref, target), ctx.insert(end, ', to="varying"')], "safe"  # type: ignore[arg-type]

    def _tie_in_call(self, ctx: Context, ref: ast.AST, target: str):  # noqa: ANN202
        call = call_of(ref)
        if call is None or len(call.args) != 2 or call.keywords or has_star(call):
            return None
        if not isinstance(call.args[0], (ast.Name, ast.Attribute, ast.Constant)):
            return None  # evaluating `a` could have effects
        return [ctx.replace(call, parenthesized(ctx, call.args[1]))], "safe"

    def _impl_key_call(self, ctx: Context, ref: ast.AST, target: str):  # noqa: ANN202
        call = call_of(ref)
        if call is None or len(call.args) != 1 or call.keywords or has_star(call):
            return None
        impl = _KEY_IMPLS[(ctx.qualname(ref) or "").rpartition(".")[2]]
        return [
            ctx.replace(ref, target),
            ctx.insert(ctx.end(call.args[0]), f', impl="{impl}"'),
        ], "safe"

    def _sph_harm_call(self, ctx: Context, ref: ast.AST, target: str):  # noqa: ANN202
        call = call_of(ref)
        if call is None or has_star(call) or len(call.args) > 4:
            return None
        names = ("m", "n", "theta", "phi")
        got = {name: argument_of(call, i, name) for i, name in enumerate(names)}
        if any(v is None for v in got.values()):
            return None
        rest = [kw for kw in call.keywords if kw.arg not in names]
        if any(kw.arg != "n_max" for kw in rest):
            return None
        order = ("n", "m", "phi", "theta")
        args = [ctx.text(got[k]) for k in order] + [ctx.text(kw) for kw in rest]  # type: ignore[arg-type]
        return [ctx.replace(call, f"{target}({', '.join(args)})")], "unsafe"


# =============================================================================================
# JAX811
# =============================================================================================

ARRAY_PRODUCERS = ("jax.numpy.", "jax.random.", "jax.lax.", "jax.nn.", "jax.device_put")
KEY_PRODUCERS = frozenset(
    {
        "jax.random.key",
        "jax.random.PRNGKey",
        "jax.random.split",
        "jax.random.fold_in",
        "jax.random.wrap_key_data",
    }
)


class RemovedKeywordOrPositional(Rule):
    """Flags argument spellings that JAX no longer accepts.

    What it does: finds `jnp.clip(a=, a_min=, a_max=)`, `jnp.reshape(x, newshape=)`,
    `jnp.where(condition=, x=, y=)`, `jax.jit(fun=f)`, `jax.jit(f, 0)` (positional
    `static_argnums`), positional `copy`/`order`/`ndmin` in `jnp.array` (JAX >= 0.10.1; an
    error from 0.12), `jax.make_mesh(axis_shapes=)` (renamed `axis_sizes` in 0.11.1),
    `jax.checkpoint(concrete=)`, `jax.pure_callback(vectorized=)`, and on values known
    to be JAX arrays (bound from `jnp.*`/`jax.random.*`/`jax.device_put` calls, or parameters
    annotated `jax.Array`): `x.device()`, `x.device_buffer`, `x.device_buffers`, and
    `key.unsafe_raw_array()` on typed keys.
    Why is this bad: each raises in JAX 0.10.2 (`TypeError: clip() got an unexpected
    keyword argument 'a'`, `jit() takes from 0 to 1 positional arguments`,
    `TypeError: 'Device' object is not callable`, `AttributeError` for `device_buffer`), or
    warns (`jnp.array` positional `copy`, deprecated in 0.10.1).
    Example:
        y = jnp.clip(x, a_min=0.0, a_max=1.0)
        f = jax.jit(step, (1,))
        dev = x.device()
    Use instead:
        y = jnp.clip(x, min=0.0, max=1.0)
        f = jax.jit(step, static_argnums=(1,))
        dev = x.device
    Fix: the keyword rewrite (safe); `make_mesh(axis_shapes=s)` -> `make_mesh(s)` (safe: the
    positional form works on every JAX, either keyword fails on some). `concrete=` and
    `vectorized=`: none (the replacement is a design choice). Receivers that are not provably
    JAX arrays are left alone (`torch_tensor.device()` is fine).
    """

    silent_in_compat_code = True
    code = "JAX811"
    name = "removed-keyword-or-positional"
    message = "{detail}"
    fix_safety = "safe"
    verifier = "import"
    tier = 2
    examples = Examples(
        invalid=(
            """
            import jax
            import jax.numpy as np


            def prep(x):
                y = np.clip(x, a_min=0.0, a_max=1.0)  # error: JAX811
                z = np.reshape(y, newshape=(-1,))  # error: JAX811
                return np.where(condition=z > 0, x=z, y=0.0)  # error: JAX811


            step = jax.jit(prep, (0,))  # error: JAX811
            arr = np.array([1, 2], np.int32)
            dev = arr.device()  # error: JAX811
            buf = arr.device_buffer  # error: JAX811
            copied = np.array([1, 2], np.int32, False)  # error: JAX811
            """,
            """
            import jax


            def place(x: jax.Array):
                return x.device_buffers  # error: JAX811


            f = jax.jit(fun=place)  # error: JAX811
            """,
            """
            import jax

            mesh = jax.make_mesh(axis_shapes=(8,), axis_names=("x",))  # error: JAX811
            f = jax.checkpoint(lambda x: x, concrete=True)  # error: JAX811
            y = jax.pure_callback(abs, jax.ShapeDtypeStruct((), "float32"), 1.0, vectorized=True)  # error: JAX811
            """,
        ),
        valid=(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np
            import torch


            t = torch.zeros(3)
            dev = t.device()
            a = np.clip(np.ones(3), a_min=0, a_max=1)
            b = jnp.clip(jnp.ones(3), min=0, max=1)
            c = jnp.reshape(b, shape=(3,))
            f = jax.jit(lambda x: x, static_argnums=(0,))
            d = jnp.array([1, 2], jnp.int32, copy=False)
            dev2 = d.device
            """,
        ),
        fixes=(
            (
                """
                import jax
                import jax.numpy as jnp


                def prep(x):
                    y = jnp.clip(a=x, a_min=0.0, a_max=1.0)
                    z = jnp.reshape(y, newshape=(-1,))
                    return jnp.where(z > 0, x=z, y=0.0, size=None)


                step = jax.jit(fun=prep)
                step2 = jax.jit(prep, 0)
                arr = jnp.array([1, 2], jnp.int32, False)
                dev = arr.device()
                buf = arr.device_buffer
                bufs = arr.device_buffers
                key = jax.random.key(0)
                raw = key.unsafe_raw_array()
                """,
                """
                import jax
                import jax.numpy as jnp


                def prep(x):
                    y = jnp.clip(x, min=0.0, max=1.0)
                    z = jnp.reshape(y, shape=(-1,))
                    return jnp.where(z > 0, z, 0.0, size=None)


                step = jax.jit(prep)
                step2 = jax.jit(prep, static_argnums=0)
                arr = jnp.array([1, 2], jnp.int32, copy=False)
                dev = arr.device
                buf = arr.addressable_data(0)
                bufs = [s.data for s in arr.addressable_shards]
                key = jax.random.key(0)
                raw = jax.random.key_data(key)
                """,
            ),
            (
                """
                import jax

                mesh = jax.make_mesh(axis_shapes=(1,), axis_names=("x",))
                """,
                """
                import jax

                mesh = jax.make_mesh((1,), axis_names=("x",))
                """,
            ),
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        q = ctx.qualname(node.func)
        if q == "jax.numpy.clip":
            self._clip(node, ctx)
        elif q == "jax.numpy.reshape":
            kw = keyword_node(node, "newshape")
            if kw is not None:
                self._emit(
                    node,
                    "`jnp.reshape(newshape=...)` was removed; use `shape=`",
                    [rename_keyword(ctx, kw, "shape")],
                )
        elif q == "jax.numpy.where":
            self._positional_only(node, ctx, ("condition", "x", "y"), "jnp.where")
        elif q == "jax.jit":
            self._jit(node, ctx)
        elif q == "jax.numpy.array":
            if len(node.args) > 2 and not has_star(node) and ctx.target.reaches("0.10.1"):
                names = ("copy", "order", "ndmin")
                edits = [name_argument(ctx, a, names[i]) for i, a in enumerate(node.args[2:5])]
                fixable = len(node.args) <= 5
                status = (
                    "raises `TypeError: array() takes from 1 to 2 positional arguments` from JAX 0.12"
                    if ctx.target.reaches("0.12")
                    else "is deprecated (JAX 0.10.1; an error from 0.12)"
                )
                self._emit(
                    node,
                    f"passing `copy`/`order`/`ndmin` to `jnp.array` positionally {status}; pass them by keyword",
                    edits if fixable else None,
                )
        elif q == "jax.make_mesh":
            self._make_mesh(node, ctx)
        elif q in ("jax.checkpoint", "jax.remat"):
            kw = keyword_node(node, "concrete")
            if kw is not None:
                self._emit(
                    node,
                    "`jax.checkpoint(concrete=...)` was removed (`NotImplementedError`; `TypeError` from JAX 0.11); drop it and mark the Python-value arguments with `static_argnums=`",
                    None,
                )
        elif q == "jax.pure_callback":
            kw = keyword_node(node, "vectorized")
            if kw is not None:
                self._emit(
                    node,
                    "`jax.pure_callback(vectorized=...)` was removed in JAX 0.6 (from 0.10 it is passed on to the callback and fails when the program runs); use `vmap_method=` ('sequential', 'expand_dims', 'broadcast_all')",
                    None,
                )
        elif isinstance(node.func, ast.Attribute) and not node.args and not node.keywords:
            attr = node.func.attr
            recv = node.func.value
            if attr == "device" and self._is_array(recv, ctx):
                self._emit(
                    node,
                    "`Array.device` is a property now; `x.device()` raises `TypeError: 'Device' object is not callable`",
                    [ctx.replace(node, ctx.text(node.func))],
                )
            elif attr == "unsafe_raw_array" and self._is_key(recv, ctx):
                try:
                    text, edits = spell(ctx, "jax.random.key_data")
                    fix = [ctx.replace(node, f"{text}({ctx.text(recv)})"), *edits]
                except LookupError:
                    fix = None
                self._emit(
                    node,
                    "`key.unsafe_raw_array()` was removed; use `jax.random.key_data(key)`",
                    fix,
                )

    def visit_Attribute(self, node: ast.Attribute, ctx: Context) -> None:
        if node.attr not in ("device_buffer", "device_buffers") or not isinstance(
            node.ctx, ast.Load
        ):
            return
        if not self._is_array(node.value, ctx):
            return
        recv = parenthesized(ctx, node.value)
        if node.attr == "device_buffer":
            new, msg = (
                f"{recv}.addressable_data(0)",
                "`x.device_buffer` was removed; use `x.addressable_data(0)`",
            )
        else:
            new = f"[s.data for s in {recv}.addressable_shards]"
            msg = "`x.device_buffers` was removed; use `[s.data for s in x.addressable_shards]`"
        self._emit(node, msg, [ctx.replace(node, new)])

    # -- cases ------------------------------------------------------------------------------
    def _make_mesh(self, node: ast.Call, ctx: Context) -> None:
        """`make_mesh(axis_shapes=...)`: the keyword was renamed `axis_sizes` in JAX 0.11.1 (a
        `TypeError` there); passing it positionally works on every JAX."""
        kw = keyword_node(node, "axis_shapes")
        if kw is None or has_star(node) or not ctx.target.reaches("0.11.1"):
            return
        first = not node.args and node.keywords[0] is kw
        self._emit(
            node,
            "`jax.make_mesh(axis_shapes=...)` raises `TypeError` from JAX 0.11.1 (the keyword is now `axis_sizes`); pass the sizes positionally, which every JAX accepts",
            [drop_keyword_name(ctx, kw)] if first else None,
        )

    def _emit(self, node: ast.AST, detail: str, edits: list[Edit] | None) -> None:
        fix = self.fix(*edits, safety="safe", message="Rewrite the arguments") if edits else None
        self.report(node, detail=detail, fix=fix)

    def _clip(self, node: ast.Call, ctx: Context) -> None:
        old = [kw for kw in node.keywords if kw.arg in ("a", "a_min", "a_max")]
        if not old:
            return
        if not ctx.target.reaches("0.10") and all(kw.arg != "a" for kw in old):
            return  # JAX 0.6 accepts `a_min=`/`a_max=` silently (`a=` warns); 0.10 removed them
        edits: list[Edit] | None = []
        for kw in old:
            if kw.arg == "a":
                if node.args or node.keywords[0] is not kw:
                    edits = None
                    break
                edits.append(drop_keyword_name(ctx, kw))
            else:
                edits.append(rename_keyword(ctx, kw, kw.arg[2:]))  # type: ignore[index]
        self._emit(
            node,
            "`jnp.clip(a=..., a_min=..., a_max=...)` keywords were removed in JAX 0.10.0; use `jnp.clip(x, min=..., max=...)`",
            edits,
        )

    def _positional_only(
        self, node: ast.Call, ctx: Context, params: tuple[str, ...], name: str
    ) -> None:
        given = [kw for kw in node.keywords if kw.arg in params]
        if not given or has_star(node):
            return
        k = len(node.args)
        expected = list(params[k : k + len(given)])
        in_order = [kw.arg for kw in node.keywords[: len(given)]] == expected
        edits = [drop_keyword_name(ctx, kw) for kw in given] if in_order else None
        self._emit(
            node,
            f"`{name}` takes {', '.join(f'`{p}`' for p in params)} positionally only; pass them without keywords",
            edits,
        )

    def _jit(self, node: ast.Call, ctx: Context) -> None:
        if has_star(node):
            return
        fun = keyword_node(node, "fun")
        if fun is not None:
            ok = not node.args and node.keywords[0] is fun
            self._emit(
                node,
                "`jax.jit(fun=...)` raises `TypeError`: the function is positional-only; pass it first without `fun=`",
                [drop_keyword_name(ctx, fun)] if ok else None,
            )
        elif len(node.args) > 1:
            ok = (
                len(node.args) == 2
                and literal_ints(node.args[1])
                and keyword_node(node, "static_argnums") is None
            )
            self._emit(
                node,
                "`jax.jit` takes only the function positionally (`TypeError: jit() takes from 0 to 1 positional arguments`); pass `static_argnums=` by keyword",
                [name_argument(ctx, node.args[1], "static_argnums")] if ok else None,
            )

    # -- evidence ------------------------------------------------------------------------------
    def _bound_call(self, node: ast.AST, ctx: Context) -> str | None:
        """Qualified name of the call that produced `node` (directly or via one binding)."""
        if isinstance(node, ast.Call):
            return ctx.qualname(node.func)
        if isinstance(node, ast.Name):
            b = ctx.index.binding(node.id, ctx.index.scope_of(node))
            if b is None:
                return None
            if b.kind == "assign" and isinstance(b.value, ast.Call):
                return ctx.qualname(b.value.func)
            if b.kind == "param" and isinstance(b.node, ast.arg) and b.node.annotation is not None:
                ann = ctx.qualname(b.node.annotation)
                return "jax.Array" if ann == "jax.Array" else None
        return None

    def _is_array(self, node: ast.AST, ctx: Context) -> bool:
        q = self._bound_call(node, ctx)
        return q is not None and (q == "jax.Array" or q.startswith(ARRAY_PRODUCERS))

    def _is_key(self, node: ast.AST, ctx: Context) -> bool:
        return self._bound_call(node, ctx) in KEY_PRODUCERS


# =============================================================================================
# JAX812
# =============================================================================================

_EMPTY = {"jax.numpy.empty": "jax.numpy.zeros", "jax.numpy.empty_like": "jax.numpy.zeros_like"}
_ACCUMULATING_AT = frozenset({"add", "multiply", "mul", "divide", "power", "min", "max"})
# loop primitives and the position / keyword of their initial carry
_CARRY_INIT = {
    "jax.lax.fori_loop": (3, "init_val"),
    "jax.lax.while_loop": (2, "init_val"),
    "jax.lax.scan": (1, "init"),
}


class EmptyUsedAsZeros(Rule):
    """Flags `jnp.empty` / `jnp.empty_like` arrays that are used as if they held zeros.

    What it does: finds an array made by `jnp.empty(...)` / `jnp.empty_like(...)` that is then
    accumulated into: `x += ...`, `x = x + ...`, `x.at[i].add(...)` (or `multiply`, `min`,
    `max`, ...), or passed as the initial carry of `lax.fori_loop` / `lax.scan` /
    `lax.while_loop`. Only when the target JAX is 0.11 or newer.
    Why is this bad: up to JAX 0.10 `jnp.empty` returned zeros (its jaxpr was
    `broadcast_in_dim 0.0`); from 0.11.0 it lowers to an `empty` primitive and the memory is
    uninitialized, like NumPy's. An accumulator started from it silently starts from garbage
    (CPU often happens to give zeros, accelerators do not).
    Example:
        total = jnp.empty(3)
        for x in xs:
            total += x
    Use instead:
        total = jnp.zeros(3)
    Fix: `jnp.empty` -> `jnp.zeros`, `jnp.empty_like` -> `jnp.zeros_like` (safe: same
    arguments, and exactly what every JAX before 0.11 computed).
    """

    code = "JAX812"
    name = "empty-used-as-zeros"
    message = "`{old}` returns uninitialized memory from JAX 0.11 (zeros before); `{name}` {use}, so it starts from garbage: use `{new}`"
    fix_safety = "safe"
    verifier = None  # CPU happens to hand out zeroed memory: nothing to observe at run time
    tier = 3
    silent_in_compat_code = True
    examples = Examples(
        invalid=(
            """
            import jax.numpy as jnp


            def total(xs):
                acc = jnp.empty(3)  # error: JAX812
                for x in xs:
                    acc += x
                return acc
            """,
            """
            import jax
            import jax.numpy as jnp

            counts = jnp.empty_like(jnp.ones(4), dtype=jnp.int32)  # error: JAX812
            counts = counts.at[jnp.array([0, 2])].add(1)
            s = jax.lax.fori_loop(0, 3, lambda i, c: c + i, jnp.empty(()))  # error: JAX812
            """,
        ),
        valid=(
            """
            import jax.numpy as jnp
            import numpy as np

            buf = jnp.empty(3)
            buf = buf.at[0].set(1.0).at[1:].set(2.0)
            host = np.empty(3)
            host += 1
            acc = jnp.zeros(3)
            acc += 1
            """,
        ),
        fixes=(
            (
                """
                import jax.numpy as jnp


                def total(xs):
                    acc = jnp.empty(3, dtype=jnp.float32)
                    for x in xs:
                        acc = acc + x
                    return acc
                """,
                """
                import jax.numpy as jnp


                def total(xs):
                    acc = jnp.zeros(3, dtype=jnp.float32)
                    for x in xs:
                        acc = acc + x
                    return acc
                """,
            ),
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        old = ctx.qualname(node.func)
        if old not in _EMPTY or not ctx.target.reaches("0.11"):
            return
        use = self._carry_use(node, ctx)
        shown = "this array"
        if use is None:
            parent = getattr(node, "jl_parent", None)
            if not (
                isinstance(parent, ast.Assign)
                and len(parent.targets) == 1
                and isinstance(parent.targets[0], ast.Name)
            ):
                return
            shown = f"`{parent.targets[0].id}`"
            use = self._accumulated(parent.targets[0].id, parent, ctx)
            if use is None:
                return
        fix = None
        try:
            text, edits = spell(ctx, _EMPTY[old])
            fix = self.fix(ctx.replace(node.func, text), *edits, message=f"Use `{text}`")
        except LookupError:
            fix = None
        short = old.replace("jax.numpy.", "jnp.")
        new = _EMPTY[old].replace("jax.numpy.", "jnp.")
        self.report(node, fix=fix, old=short, name=shown, use=use, new=new)

    def _carry_use(self, node: ast.AST, ctx: Context) -> str | None:
        parent = getattr(node, "jl_parent", None)
        if isinstance(parent, ast.keyword):
            call, kw = getattr(parent, "jl_parent", None), parent.arg
        else:
            call, kw = parent, None
        if not isinstance(call, ast.Call):
            return None
        q = ctx.qualname(call.func)
        if q not in _CARRY_INIT:
            return None
        pos, name = _CARRY_INIT[q]
        hit = kw == name if kw else len(call.args) > pos and call.args[pos] is node
        return f"is the initial carry of `{q.replace('jax.lax.', 'lax.')}`" if hit else None

    def _accumulated(self, name: str, assign: ast.Assign, ctx: Context) -> str | None:
        """How `name` (bound by `assign`) is accumulated into in the same function, if it is."""
        scope_node = ctx.index.enclosing_function(assign) or ctx.index.tree
        for n in ast.walk(scope_node):
            if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
                if n.target.id == name and not isinstance(n.op, (ast.BitOr, ast.BitAnd)):
                    return f"is accumulated into (`{name} {_OPS.get(type(n.op), 'op')}= ...`)"
            elif isinstance(n, ast.Assign) and n is not assign and len(n.targets) == 1:
                t = n.targets[0]
                if (
                    isinstance(t, ast.Name)
                    and t.id == name
                    and isinstance(n.value, ast.BinOp)
                    and any(
                        isinstance(side, ast.Name) and side.id == name
                        for side in (n.value.left, n.value.right)
                    )
                ):
                    return f"is accumulated into (`{name} = {name} ... `)"
            elif (
                isinstance(n, ast.Call)
                and isinstance(n.func, ast.Attribute)
                and n.func.attr in _ACCUMULATING_AT
                and isinstance(n.func.value, ast.Subscript)
                and isinstance(n.func.value.value, ast.Attribute)
                and n.func.value.value.attr == "at"
                and isinstance(n.func.value.value.value, ast.Name)
                and n.func.value.value.value.id == name
            ):
                return f"is accumulated into (`{name}.at[...].{n.func.attr}(...)`)"
            elif isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load):
                if self._carry_use(n, ctx):
                    return self._carry_use(n, ctx)
        return None


_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.MatMult: "@", ast.Pow: "**"}
