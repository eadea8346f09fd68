"""Which public methods of a class run only while its objects are being built, across the project.

Why: a method jitted with `self` static (`@partial(jax.jit, static_argnums=0)`) goes stale only
when an attribute it reads is reassigned after the object is built (JAX409,
analysis/instance_state.py). Two shapes of construction happen in public methods:

- the class calls the method from `__init__` (`self.init_env(config)`) and no module of the
  project calls it on anything else (`ModuleSummary.init_methods`; v21 JAX-DIPS, v23 ac_jax);
- the class never calls it, and every call of it in the project is a set-up call: the
  statement right after the object was built, before anything else used it
  (`wf = Wavefunction(ndim, npart)` then `params = wf.build(key)`;
  `ModuleSummary.setup_methods`, `setup_calls`; v31 CompPhysics notebooks, JAX409 x69).
  No trace of the object can have happened before that call, and nothing calls it after.

The project index joins the modules' lists (`construction_only_seeds`); a notebook, which no
module imports, is judged from its own calls (`local_construction_only`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping

from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.instance_state import (
    construction_candidates,
    self_attribute_nodes,
    uncalled_public_methods,
)
from jaxlint.analysis.jit_sites import jit_spec_of_def
from jaxlint.analysis.project_data import ConstructionOnly
from jaxlint.analysis.seed_keys import CONSTRUCTION_ONLY
from jaxlint.analysis.syntax import parent

_CALL, _ATTRIBUTE, _NAME, _ASSIGN = ast.Call, ast.Attribute, ast.Name, ast.Assign
_BLOCKS = ("body", "orelse", "finalbody")
_HOLDERS = frozenset({ast.Expr, ast.Assign, ast.AnnAssign})  # statements a set-up call can be
_COMPOUND = frozenset(
    {
        ast.FunctionDef,
        ast.AsyncFunctionDef,
        ast.ClassDef,
        ast.If,
        ast.For,
        ast.AsyncFor,
        ast.While,
        ast.With,
        ast.AsyncWith,
        ast.Try,
        ast.Match,
        *((ast.TryStar,) if hasattr(ast, "TryStar") else ()),
    }
)


def construction_facts(index: ModuleIndex) -> tuple[list[str], list[str], list[str], list[str]]:
    """`ModuleSummary.init_methods`, `setup_methods`, `method_calls` and `setup_calls`: the
    public methods (`Class.method`) of the top-level classes with a jitted method that the class
    calls only while an object is built, and those it never calls itself; the public method
    names the module calls (`x.init_env()`) but for set-up calls and those classes' calls on
    their own `self` (the class analysis reads them); and its set-up calls (`Class.method`)."""
    init: list[str] = []
    setup: list[str] = []
    own: set[int] = set()  # the `self.<name>` callees inside a class with candidates
    for cls in index.tree.body:
        if not isinstance(cls, ast.ClassDef) or not any(
            isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
            and jit_spec_of_def(index, s) is not None
            for s in cls.body
        ):
            continue
        names = construction_candidates(cls)
        uncalled = uncalled_public_methods(cls)
        init += [f"{cls.name}.{n}" for n in sorted(names)]
        setup += [f"{cls.name}.{n}" for n in sorted(uncalled)]
        if names:
            own |= self_attribute_nodes(cls)
    calls = indexed_construction_calls(index)
    return init, setup, method_calls(index.calls, own, calls), sorted(set(calls.values()))


def indexed_construction_calls(index: ModuleIndex) -> dict[int, str]:
    """`post_construction_calls` from the index: only the statements that bind a name to a
    call of a capitalised name (`wf = Wavefunction(...)`: a class, by convention) are looked
    at, with the statement after each, instead of every statement of the module."""
    out: dict[int, str] = {}
    for scope in index.scopes.values():
        for bindings in scope.bindings.values():
            for b in bindings:
                stmt = b.node
                if type(stmt) is not _ASSIGN or b.kind != "assign":
                    continue
                built = _constructed(stmt)
                if built is None:
                    continue
                nxt = _next_statement(stmt)
                if nxt is not None and type(nxt) in _HOLDERS:
                    call = _setup_call(nxt, built[0])
                    if call is not None:
                        out[id(call)] = f"{built[1]}.{call.func.attr}"  # type: ignore[attr-defined]
    return out


def _next_statement(stmt: ast.stmt) -> ast.stmt | None:
    holder = parent(stmt)
    for block in (
        *(getattr(holder, f, None) or () for f in _BLOCKS),
        *(h.body for h in getattr(holder, "handlers", ())),
        *(c.body for c in getattr(holder, "cases", ())),
    ):
        for i, s in enumerate(block):
            if s is stmt:
                return block[i + 1] if i + 1 < len(block) else None
    return None


def method_calls(
    calls: Iterable[ast.AST],
    own: set[int] | frozenset[int] = frozenset(),
    setup: Mapping[int, str] | None = None,
) -> list[str]:
    """The public method names `calls` call on an attribute (`trainer.init_env()`), but the
    calls whose callee node is in `own` and the set-up calls (`setup`, by the call's id). Also
    asked of a module summarised from its imports alone (no transform or `random` in its
    text), over its whole tree: a driver script calling a method is one."""
    names: set[str] = set()
    setup = setup or {}
    for call in calls:
        if type(call) is not _CALL:  # exact classes: the parser makes no subclasses
            continue
        func = call.func
        if type(func) is not _ATTRIBUTE:
            continue
        attr = func.attr
        if not attr.startswith("_") and id(func) not in own and id(call) not in setup:
            names.add(attr)
    return sorted(names)


def post_construction_calls(tree: ast.AST) -> dict[int, str]:
    """The set-up calls of `tree`, by id: `Class.method` for a call `v.method(...)` that is the
    whole value of a statement (`v.build(key)`, `params = v.build(key)`) right after
    `v = Class(...)` in the same block, with no other use of `v` in the statement (only the
    first: the next call could be a jitted one, which traces the object before a set-up).
    Only statements are walked (the block lists of compound statements), with exact type
    tests: this runs for every module the project index summarises."""
    out: dict[int, str] = {}
    blocks: list[list[ast.stmt]] = [tree.body] if isinstance(tree, ast.Module) else []
    while blocks:
        built: tuple[str, str] | None = None  # (variable, class) just constructed
        for stmt in blocks.pop():
            cls = type(stmt)
            if built is not None and cls in _HOLDERS:
                call = _setup_call(stmt, built[0])
                if call is not None:
                    out[id(call)] = f"{built[1]}.{call.func.attr}"  # type: ignore[attr-defined]
            built = _constructed(stmt) if cls is _ASSIGN else None  # type: ignore[arg-type]
            if cls in _COMPOUND:
                for field in _BLOCKS:
                    inner = getattr(stmt, field, None)
                    if inner:
                        blocks.append(inner)
                blocks.extend(h.body for h in getattr(stmt, "handlers", ()))
                blocks.extend(c.body for c in getattr(stmt, "cases", ()))
    return out


def _constructed(stmt: ast.Assign) -> tuple[str, str] | None:
    """`(v, Class)` for `v = Class(...)` (a call of a capitalised name, or an attribute whose
    last part is one: a class, by convention; `x = make(3)` builds nothing known)."""
    value, targets = stmt.value, stmt.targets
    if type(value) is not _CALL or len(targets) != 1 or type(targets[0]) is not _NAME:
        return None
    func = value.func
    name = func.id if type(func) is _NAME else getattr(func, "attr", None)
    return (targets[0].id, name) if name and name[:1].isupper() else None


def _setup_call(stmt: ast.stmt, var: str) -> ast.Call | None:
    value = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign, ast.AnnAssign)) else None
    if not (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and isinstance(value.func.value, ast.Name)
        and value.func.value.id == var
        and not value.func.attr.startswith("_")
    ):
        return None
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [getattr(stmt, "target", None)]
    uses = [
        n
        for part in (*value.args, *value.keywords, *targets)
        if part is not None
        for n in ast.walk(part)
        if isinstance(n, ast.Name) and n.id == var
    ]
    return None if uses else value


def kept_methods(
    init: Iterable[str], setup: Iterable[str], called: set[str], setup_calls: set[str]
) -> tuple[str, ...]:
    """The construction-only methods: a class's construction helper that nothing else calls,
    and a method the class never calls that is called, and only in set-up calls."""
    kept = [m for m in init if m.rsplit(".", 1)[-1] not in called]
    kept += [m for m in setup if m in setup_calls and m.rsplit(".", 1)[-1] not in called]
    return tuple(sorted(kept))


def construction_only_seeds(project, seeds: dict) -> None:  # noqa: ANN001 - ProjectIndex
    """Add the `ConstructionOnly` entries: a candidate of one module is kept when no module of
    the project (its own included, outside the class's own construction) calls a method of
    that name on anything but in set-up calls (v21 and v23 rows, JAX409)."""
    called: set[str] = set()
    setup_calls: set[str] = set()
    for summary in project.summaries.values():
        called.update(summary.method_calls)
        setup_calls.update(summary.setup_calls)
    for path in sorted(project.summaries):
        summary = project.summaries[path]
        kept = kept_methods(summary.init_methods, summary.setup_methods, called, setup_calls)
        if kept:
            seeds.setdefault(path, {})[CONSTRUCTION_ONLY] = ConstructionOnly(kept)


def local_construction_only(index: ModuleIndex) -> ConstructionOnly | None:
    """The `ConstructionOnly` entry of a module that nothing imports (a notebook), from its own
    calls alone."""
    init, setup, called, setup_calls = construction_facts(index)
    kept = kept_methods(init, setup, set(called), set(setup_calls))
    return ConstructionOnly(kept) if kept else None
