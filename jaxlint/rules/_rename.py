"""The rename machinery shared by the deprecation rules (JAX8xx) and JAX302 removed-pmap-api.

A `Move` says what replaces an old qualified name (from which JAX on, safe or unsafe, with
what advice); `RenameRule` finds references to and imports of the old names through
`ctx.qualname` and rewrites them; `ConfigOptions` does the same for `jax.config.update` and
`JAX_*` environment options. It lives outside any family so that `rules/sharding/` and
`rules/deprecations/` both build on it without one rule family importing the other.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace
from typing import ClassVar

from jaxlint.analysis import syntax
from jaxlint.core.diagnostic import Edit
from jaxlint.core.jaxversion import JaxTarget, parse_version
from jaxlint.edits.imports import spell
from jaxlint.edits.rename import (
    config_update,
    delete_statement,
    environ_setting,
    expression_statement,
    import_text,
    insert_after_statement,
    module_span_edit,
    remove_alias,
)
from jaxlint.rules.base import Context, Rule, last_components

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


_NAMES = frozenset({"Name"})
_LOAD = ast.Load  # `type(x) is _LOAD`: the parser makes no subclasses


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
    _tails_by_target: ClassVar[dict[str, frozenset[str]]] = {}
    # per target: qualified name -> whether `move_for` has an entry for it (`visit_Module`
    # asks it of every import of every module; the answer depends on the class, the target
    # and the name only)
    _leads_by_target: ClassVar[dict[str, dict[str, bool]]] = {}
    _prefilter_from_renames: ClassVar[bool] = False

    def __init_subclass__(cls, **kw: object) -> None:
        super().__init_subclass__(**kw)
        cls._derive_prefilter_words()
        moves = {old: _move(v) for old, v in cls.RENAMES.items()}
        cls._moves = {
            old: replace(
                m, deprecated=m.deprecated or cls.DEPRECATED, removed=m.removed or cls.REMOVED
            )
            for old, m in moves.items()
        }
        cls._module_moves = tuple(old for old, m in cls._moves.items() if m.module)
        cls._by_target = {}
        cls._tails_by_target = {}
        cls._leads_by_target = {}

    @classmethod
    def _derive_prefilter_words(cls) -> None:
        """The prefilter gate from `RENAMES`: a finding is a reference to, or an import of, an
        old dotted name or a name under an old module, so the old name's last component is in
        the text. Only for direct subclasses that change no lookup and no visitor (a mixin or a
        pattern-based `dynamic_move` could match names outside the table); words the class
        declares itself take precedence."""
        if "prefilter_words" in vars(cls):
            cls._prefilter_from_renames = False
            return
        overrides = any(
            name.startswith(("visit_", "leave_")) or name in ("finish", "move_for", "dynamic_move")
            for name in vars(cls)
        )
        if cls.__mro__[1] is RenameRule and cls.RENAMES and not overrides:
            cls.prefilter_words = last_components(cls.RENAMES)
            cls._prefilter_from_renames = True
        elif cls._prefilter_from_renames:  # a parent's table does not gate this class
            cls.prefilter_words = ()
            cls._prefilter_from_renames = False

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

    @classmethod
    def _tails_for(cls, target: JaxTarget) -> frozenset[str] | None:
        """The last components of the table's dotted names (an attribute chain's qualified
        name ends with its attribute, so any other attribute is no reference to an entry and
        needs no qualified name: `visit_Attribute` runs for every attribute of a module, in
        each of these rules); None when a `dynamic_move` may match names outside the table."""
        if cls.dynamic_move is not RenameRule.dynamic_move:
            return None
        found = cls._tails_by_target.get(target.key())
        if found is None:
            moves, _ = cls.moves_for(target)
            found = frozenset(old.rsplit(".", 1)[-1] for old in moves)
            cls._tails_by_target[target.key()] = found
        return found

    def __init__(self, ctx: Context, sink: list) -> None:
        super().__init__(ctx, sink)
        self._moves, self._module_moves = self.moves_for(ctx.target)  # type: ignore[misc]
        self._tails = self._tails_for(ctx.target)
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
        leads = self._leads_by_target.get(ctx.target.key())
        if leads is None:
            leads = self._leads_by_target[ctx.target.key()] = {}
        for name, qualnames in ctx.index.imported_names().items():
            for q in qualnames:
                lead = leads.get(q)
                if lead is None:
                    lead = leads[q] = bool(self.move_for(q))
                if lead:
                    self._watch.add(name)
                    break

    def attribute_filter(self) -> frozenset[str] | None:
        # `visit_Attribute` returns at once for an attribute outside the table's tails
        if type(self).visit_Attribute is not RenameRule.visit_Attribute:
            return None
        return self._tails

    def unneeded_visits(self) -> frozenset[str]:
        # no imported name leads to an entry: `visit_Name` would return at its first test
        return _NAMES if not self._watch else frozenset()

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
        parent = syntax.parent(node)
        if move is not None and move.per_use and not isinstance(parent, ast.Attribute):
            self._report(node, b.qualname, move, ctx)  # type: ignore[arg-type]

    def visit_Attribute(self, node: ast.Attribute, ctx: Context) -> None:
        tails = self._tails
        if (tails is not None and node.attr not in tails) or type(node.ctx) is not _LOAD:
            return
        q = ctx.qualname(node)
        if q is None:
            return
        move = self._moves.get(q) or self.dynamic_move(q)
        if move is None:
            return
        self._dotted_uses[q] = self._dotted_uses.get(q, 0) + 1
        parent = syntax.parent(node)
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


IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "AttributeError", "Exception"})


def import_shim(stmt: ast.stmt) -> str | None:
    """ "try" / "fallback" when `stmt` sits in a `try` body or handler that catches import
    errors (a version-compatibility shim), else None."""
    child: ast.AST = stmt
    parent = syntax.parent(stmt)
    while parent is not None and not isinstance(parent, ast.Module):
        if isinstance(parent, ast.ExceptHandler) and _catches_import_error(parent):
            return "fallback"
        if isinstance(parent, ast.Try) and child in parent.body:
            if any(_catches_import_error(h) for h in parent.handlers):
                return "try"
        child, parent = parent, syntax.parent(parent)
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


def needs_parentheses(node: ast.AST) -> bool:
    """Whether an expression replacing `node` (e.g. `-jnp.inf`) must be parenthesized."""
    parent = syntax.parent(node)
    if isinstance(parent, (ast.Attribute, ast.Subscript)) and parent.value is node:
        return True
    if isinstance(parent, ast.Call) and parent.func is node:
        return True
    if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Pow) and parent.left is node:
        return True
    return isinstance(parent, ast.Await)


UNKNOWN = object()
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

    def visit_Attribute(self, node: ast.Attribute, ctx: Context) -> None:
        """`jax.config.jax_pmap_shmap_merge` read (to save and restore it): a removed option
        is no attribute of the config either (`AttributeError: 'Config' object has no
        attribute`, checked on 0.10.2 and 0.12), so deleting its `update` alone leaves the
        read that raises (wcxve/elisa util/config.py, found by a fix run on v31)."""
        option = node.attr
        if option.startswith("jax_") and isinstance(node.ctx, ast.Load):
            self._config_read(node, option, ctx)
        after = getattr(super(), "visit_Attribute", None)  # RenameRule's, in JAX302
        if after is not None:
            after(node, ctx)

    def attribute_filter(self) -> frozenset[str] | None:
        # the options read as attributes, and a rename table's tails (JAX302 is both)
        mine = frozenset((*self.CONFIG, *self.RENAMED))
        if not isinstance(self, RenameRule):
            return mine
        tails = self._tails
        return None if tails is None else mine | tails

    def _config_read(self, node: ast.Attribute, option: str, ctx: Context) -> None:
        if option not in self.CONFIG and option not in self.RENAMED:
            return
        if ctx.qualname(node.value) not in ("jax.config", "jax._src.config.config"):
            return
        if option in self.RENAMED:
            new = self.RENAMED[option]
            fix = self.fix(  # type: ignore[attr-defined]
                ctx.replace(node, f"{ctx.text(node.value)}.{new}"),
                safety="safe",
                message=f"Read `{new}`",
            )
            msg = f"config option `{option}` was renamed to `{new}`: reading `jax.config.{option}` raises `AttributeError`"
            self.report(node, msg, fix=fix)  # type: ignore[attr-defined]
            return
        removed = CONFIG_REMOVED_IN.get(option)
        if not ctx.target.reaches(removed):
            return
        when = f" {_when(removed)}" if removed else ""
        permanent = self.CONFIG[option]
        now = (
            f"; JAX always behaves as `{option}={permanent}` now"
            if permanent is not UNKNOWN
            else "; the old behaviour cannot be selected any more"
        )
        msg = f"config option `{option}` was removed{when}: reading `jax.config.{option}` raises `AttributeError`{now}"
        self.report(node, msg)  # type: ignore[attr-defined]
