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

_CALL = ast.Call
_ATTRIBUTE = ast.Attribute
_BLOCKS = ("body", "orelse", "finalbody")


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
    calls = post_construction_calls(index.tree)
    return init, setup, method_calls(index.calls, own, calls), sorted(set(calls.values()))


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
    `v = Class(...)` in the same block, or after such set-up calls, with no other use of `v`
    in the statement. Only statements are walked (the block lists of compound statements)."""
    out: dict[int, str] = {}
    todo = [tree]
    while todo:
        node = todo.pop()
        for field in _BLOCKS:
            block = getattr(node, field, None)
            if block:
                _scan_block(block, out)
                todo.extend(s for s in block if hasattr(s, "body"))
        for handler in getattr(node, "handlers", ()):
            _scan_block(handler.body, out)
            todo.extend(s for s in handler.body if hasattr(s, "body"))
    return out


def _scan_block(block: list[ast.stmt], out: dict[int, str]) -> None:
    built: tuple[str, str] | None = None  # (variable, class) just constructed
    for stmt in block:
        call = _setup_call(stmt, built[0]) if built else None
        if call is not None and built is not None:
            out[id(call)] = f"{built[1]}.{call.func.attr}"  # type: ignore[attr-defined]
        built = _constructed(stmt)  # one call only: a second one may follow a traced call


def _constructed(stmt: ast.stmt) -> tuple[str, str] | None:
    """`(v, Class)` for `v = Class(...)` (a call of a name or an attribute's last part)."""
    if not (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
        and isinstance(stmt.value, ast.Call)
    ):
        return None
    func = stmt.value.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    return (stmt.targets[0].id, name) if name else None


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
