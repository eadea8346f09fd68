"""Set-up functions: module-level functions that only run from module-level code, before a point.

Why a module of its own: a function that rebinds globals (`global n_kernel; n_kernel = ...`) is a
hazard for a jitted reader of those globals only if it can run after the reader is traced. A
notebook's `load_pattern(pattern)` in cell 8, called once before the jitted reader is defined
in cell 9, sets the values the trace then bakes in; nothing changes them later. This module
answers "can this function only run before statement S?" from the module's own evidence, so
the rule asks one question instead of re-deriving call sites.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from jaxlint.analysis.flow.graph import flow_graphs
from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.jax_api import JIT_LIKE, PARTIAL, RUNS_AT_CALL
from jaxlint.analysis.syntax import FUNCTION_NODES, ancestors, is_main_guard, parent, statement_of

if TYPE_CHECKING:
    from jaxlint.analysis.flow.graph import FlowGraphs
    from jaxlint.analysis.traced import TracedFunctions


def runs_only_before(index: ModuleIndex, fn: ast.AST, stmt: ast.stmt, script: bool) -> bool:
    """`fn` runs only from module-level calls that all finish before module statement `stmt`.

    Proven when `fn` is a plain module-level `def` (no decorator, which could register it, and
    not a method), its name is used only as the callee of calls in module-level code (never
    passed as a value, rebound, listed in `__all__` or called from a function), there is at
    least one such call, and no path of the module's flow graph runs one after `stmt` (a loop
    that holds both the call and `stmt` runs the call again after it). Another module
    could still import and call `fn` later, so a public `fn` counts only in a `script` (a
    module or notebook that runs traced code itself at module level: nobody imports it to
    call its set-up function); a private `_fn` counts anywhere."""
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn.decorator_list:
        return False
    if not isinstance(parent(fn), ast.Module):
        return False
    if not (script or fn.name.startswith("_")) or fn.name in _exported(index.tree):
        return False
    calls = _runs_only_from(index, fn, None, {}, max_depth=0)
    if not calls:
        return False
    flow = flow_graphs(index)
    for call in calls:
        at = flow.statement_in(call)
        if at is None or at is stmt or any(a is stmt for a in ancestors(call)):
            return False
        if flow.may_run_after(stmt, at):
            return False  # after `stmt`, or in a loop that runs `stmt` and then the call again
    return True


MAX_CALLER_DEPTH = 4


def _runs_only_from(
    index: ModuleIndex,
    fn: ast.AST,
    scope: ast.AST | None,
    seen: dict[int, list[ast.Call]],
    depth: int = 0,
    max_depth: int = MAX_CALLER_DEPTH,
    values: bool = False,
) -> list[ast.AST]:
    """The calls in `scope`'s own body that may run module-level `fn`, or define the closure
    that does, when nothing else can: each use of its name is a call (or a run-at-once
    transform) either in `scope` or inside another module-level `def` (undecorated or only
    jit-like decorated) that itself runs only from `scope` (quantum-jax's `get_potential`,
    called by `compute_step`, called by the jitted `update` that `main`'s `lax.fori_loop`
    runs; overcooked-jax's `evaluate_model`, called in a closure of `make_train`, which
    `main` calls). Empty when any use is something else or the chain is longer than
    `max_depth` (0: every use a call made directly in `scope`; None: module-level code).
    `values`: a use in `scope`'s own body that hands the function on as a value (`engines =
    [("pgx", make_pgx), ...]`, then `bench(make)`) counts too, as the point from which it may
    run: nothing can call it before that reference is evaluated (for "set before every
    call", not for "runs only before": a value handed on may run later)."""
    if depth > max_depth:
        return []
    if id(fn) in seen:
        return seen[id(fn)]  # asked again (two calls in one caller), or a cycle: []
    seen[id(fn)] = []
    calls: list[ast.AST] = []
    for use in index.names.get(fn.name, []):  # type: ignore[attr-defined]
        call: ast.AST | None = _running_call(index, use)
        owner = index.enclosing_function(use)
        if call is None and values and owner is scope and scope is not None:
            call = use  # handed on as a value in `scope` itself: it may run from here on
        if (
            call is None
            or not isinstance(use.ctx, ast.Load)
            or index.resolve_function(use) is not fn
        ):
            return []
        if owner is scope:
            calls.append(call)
            continue
        # a def nested in a module-level function `outer` runs only after a call of `outer`
        # has defined it (make_train's closures, jitted and called after `make_train(config)`)
        while owner is not None and not isinstance(parent(owner), ast.Module):
            if owner is scope:
                return []  # a closure of `scope` itself may run before the write
            owner = index.enclosing_function(owner)
        if (
            not isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef))
            or not all(_transform_decorator(index, d) for d in owner.decorator_list)
            or not isinstance(parent(owner), ast.Module)
        ):
            return []
        inner = _runs_only_from(index, owner, scope, seen, depth + 1, max_depth, values)
        if not inner:
            return []
        calls.extend(c for c in inner if c not in calls)
    seen[id(fn)] = calls
    return calls


def _transform_decorator(index: ModuleIndex, decorator: ast.expr) -> bool:
    """`@jax.jit`, `@partial(jax.jit, static_argnums=...)`: it wraps the function and
    registers it nowhere, so the name is still called only where it is used."""
    if isinstance(decorator, ast.Call):
        if (index.qualname(decorator.func) or "") in PARTIAL and decorator.args:
            decorator = decorator.args[0]
        else:
            decorator = decorator.func
    return (index.qualname(decorator) or "") in JIT_LIKE


def _running_call(index: ModuleIndex, use: ast.Name) -> ast.Call | None:
    """The call that runs the function `use` names, there and then: `use(...)`, a control-flow
    primitive given it as its function (`lax.fori_loop(0, n, use, x)`, `lax.scan(use, c,
    xs)`), or a transform of it called at once (`jax.jit(use)(x)`). None for any other use."""
    call = parent(use)
    if not isinstance(call, ast.Call):
        return None
    if call.func is use:
        return call
    q = index.qualname(call.func) or ""
    spec = JIT_LIKE.get(q)
    if spec is None or not _in_function_slot(call, use, spec):
        return None
    if q in RUNS_AT_CALL:
        return call
    outer = parent(call)
    return outer if isinstance(outer, ast.Call) and outer.func is call else None


def _in_function_slot(call: ast.Call, use: ast.AST, spec: tuple[int | str, ...]) -> bool:
    """`use` is passed where `call`'s spec (JIT_LIKE) takes a function."""
    for slot in spec:
        if isinstance(slot, int):
            if slot < len(call.args) and call.args[slot] is use:
                return True
        elif any(k.arg == slot and k.value is use for k in call.keywords):
            return True
    return False


def _exported(tree: ast.AST) -> set[str]:
    """The names in a module-level `__all__` list or tuple display."""
    for s in getattr(tree, "body", ()):
        if (
            isinstance(s, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in s.targets)
            and isinstance(s.value, (ast.List, ast.Tuple))
        ):
            return {e.value for e in s.value.elts if isinstance(e, ast.Constant)}
    return set()


def runs_once(index: ModuleIndex, fn: ast.AST, script: bool) -> bool:
    """`fn` runs at most once: a plain module-level `def` whose name is used only as the
    callee of one module-level call that no loop holds (`if __name__ == "__main__": main()`).
    A public `fn` counts only in a `script`, as in `runs_only_before` (another module could
    import it and call it again)."""
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn.decorator_list:
        return False
    if not isinstance(parent(fn), ast.Module):
        return False
    if not (script or fn.name.startswith("_")) or fn.name in _exported(index.tree):
        return False
    uses = index.names.get(fn.name, [])
    if len(uses) != 1:
        return False
    use = uses[0]
    call = parent(use)
    return (
        isinstance(use.ctx, ast.Load)
        and isinstance(call, ast.Call)
        and call.func is use
        and index.enclosing_function(use) is None
        and index.resolve_function(use) is fn
        and not any(
            isinstance(a, (ast.For, ast.AsyncFor, ast.While, *FUNCTION_NODES))
            for a in ancestors(call)
        )
    )


def set_before_every_call(
    index: ModuleIndex, write: ast.AST, setter: ast.AST, reader: ast.AST, script: bool
) -> bool:
    """A write in `setter` (`global optimize; optimize = optimizer.update` in `main`) runs
    before every call of the traced `reader`, so the value the trace bakes in is the only
    one it ever sees: `setter` runs once (`runs_once`), `reader` is a module-level `def`
    that runs only from calls in `setter`'s own body (directly, through other module-level
    defs that run only from there, or as the body a `lax.fori_loop` in `setter` runs), and
    no path of `setter`'s flow graph runs the write after one of those calls (a loop holding
    both would: program order from the graph, not line numbers)."""
    if not isinstance(reader, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    if not isinstance(parent(reader), ast.Module) or not runs_once(index, setter, script):
        return False
    write_stmt = statement_of(write)
    calls = _runs_only_from(index, reader, setter, {}, values=True)
    if write_stmt is None or not calls:
        return False
    graphs = flow_graphs(index)
    for call in calls:
        call_stmt = statement_of(call)
        if call_stmt is None or call_stmt is write_stmt:
            return False
        if graphs.may_run_after(call_stmt, write_stmt):
            return False
    return True


def has_main_guard(index: ModuleIndex) -> bool:
    """The module runs as a program: a module-level `if __name__ == "__main__":` (nobody
    imports a script to call its `main` again)."""
    return any(is_main_guard(stmt) for stmt in getattr(index.tree, "body", ()))


def trace_sites(
    index: ModuleIndex, flow: FlowGraphs, traced: TracedFunctions[Any], reader: ast.AST | None
) -> list[ast.AST] | None:
    """The module statements where a trace of the jitted reader may start, when its name says: a
    module-scope `def` whose name only module-level code mentions runs where a load that
    this `def` reaches is (a notebook's later cell that defines a new function of the same
    name, or sets up another experiment, never runs the earlier one again). None otherwise (a
    method, a lambda, a name used inside functions: any traced call may run it)."""
    if not isinstance(reader, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    if flow.owner(reader) is not index.tree:
        return None
    return _loads_running(index, flow, traced, reader.name, reader, wrapped=False)


def _loads_running(
    index: ModuleIndex,
    flow: FlowGraphs,
    traced: TracedFunctions[Any],
    name: str,
    binding: ast.AST,
    wrapped: bool,
) -> list[ast.AST] | None:
    """The module statements holding a load of `name` that the value bound at `binding` may
    reach, less the plain calls of an unwrapped def (they run it eagerly and read the global
    afresh: v38 FORESEE `notebooks/1_1_gp_basics_refactored.ipynb`, eager calls in cells
    39-47 and the globals rebound in cell 50 before the cell jits the function; JAX503 x2).
    A load in `alias = jax.jit(partial(name, ...))` adds the statements that load `alias` (a
    trace starts where the jitted alias is called). None when a load is inside a function."""
    runs: list[ast.AST] = []
    for n in index.names.get(name, ()):
        if not isinstance(n.ctx, ast.Load) or not index.is_module_name(n):
            continue  # a store, or a local of the same name in some function
        if index.enclosing_function(n) is not None:
            return None
        if not flow.reached_by(n, binding):
            continue
        up = parent(n)
        if isinstance(up, ast.Call) and up.func is n:
            if wrapped or traced.enters_compiled(up):
                stmt = flow.statement_in(n)
                if stmt is not None:
                    runs.append(stmt)
            continue
        stmt = flow.statement_in(n)
        if stmt is None:
            continue
        if wrapped or not fresh_wrap(index, n):  # `jax.vmap(f)`: a new function, traced afresh
            runs.append(stmt)
        alias = _assigned_name(stmt, n)
        if alias is not None and not wrapped:
            more = _loads_running(index, flow, traced, alias, stmt, wrapped=True)
            if more is None:
                return None
            runs.extend(more)
    return runs


# wrappers that return a new function object on each call, so that `jax.jit(jax.vmap(f))`
# evaluated again traces again and reads the globals as they are then (checked on JAX 0.10.2
# and 0.12.1: `jax.jit(jax.vmap(f))` rebuilt after a global changed gives the new value,
# `jax.jit(f)` and `jax.jit(jax.checkpoint(f))` the old one; v42 Ziksby/MetaLearnCuriosity,
# a loop over configurations that rebuilds `jax.jit(jax.vmap(make_train))` each pass:
# JAX503 x57, read false)
FRESH_WRAPPERS = frozenset({"jax.vmap", "jax.grad", "jax.value_and_grad", "functools.partial"})


def fresh_wrap(index: ModuleIndex, load: ast.Name) -> bool:
    """`load` is the function a fresh wrapper wraps (`jax.vmap(load, ...)`)."""
    call = parent(load)
    return (
        isinstance(call, ast.Call)
        and bool(call.args)
        and call.args[0] is load
        and index.qualname(call.func) in FRESH_WRAPPERS
    )


def fresh_sites(index: ModuleIndex, flow: FlowGraphs, reader: ast.AST | None) -> list[ast.AST]:
    """The module statements that wrap the def `reader` in a fresh wrapper: each run of one
    makes a new function, so a trace after it reads the globals as they are then (a path from
    a rebinding to a trace through one of them sees no stale value)."""
    if not isinstance(reader, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return []
    out: list[ast.AST] = []
    for n in index.names.get(reader.name, ()):
        if isinstance(n.ctx, ast.Load) and index.is_module_name(n) and fresh_wrap(index, n):
            stmt = flow.statement_in(n)
            if stmt is not None:
                out.append(stmt)
    return out


def _assigned_name(stmt: ast.AST, load: ast.Name) -> str | None:
    """`alias` of a module statement `alias = <call holding load>` (one plain target)."""
    if not (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
        and isinstance(stmt.value, ast.Call)
        and load is not stmt.value
    ):
        return None
    return stmt.targets[0].id
