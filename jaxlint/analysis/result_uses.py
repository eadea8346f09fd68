"""Which elements of a function's returned tuple its callers use.

A helper that returns a key after drawing from it hands its caller a consumed key: a caller
that draws from it again reuses it (JAX201, "returned after ... consumed it"). When every
caller discards that element (`A, x0, M, _ = make_problem(n, seed)`, `state, _ =
apply_lorentz(..., key=subkey)`), or only tests it against None (`seed, rollout, data =
find_crashing_seed(...)`, `assert seed is not None`), nothing draws from it again (v17 and v18
rows, tuning material: geojax examples/largest_eigenvector.py:42, GyroJAX
collisions/operators.py:57, HighJax tests/test_crash_display.py:31, JAX201).

The callers are those the project can see: the calls in the function's own module
(`discarded_by_callers`) and, through the project index, those of the modules that import it
(`ModuleSummary.return_uses` of each importer, joined into the `RETURN_USES` seeds entry of the
function's module). Any other use of the function's name (passed as a value, `jax.jit(f)`,
`lax.scan(f, ...)`) or of the call's result (returned, indexed, passed on) uses every element.
A function nobody in the project calls keeps its finding: its callers are unknown.
"""

from __future__ import annotations

import ast

from jaxlint.analysis import syntax
from jaxlint.analysis.flow.graph import flow_graphs
from jaxlint.analysis.imports import ModuleIndex, Scope

__all__ = ["WHOLE", "discarded_by_callers", "result_uses", "return_uses"]

WHOLE = -1  # the position of a returned value that is not a tuple element


def result_uses(call: ast.Call, index: ModuleIndex) -> frozenset[int] | None:
    """The positions of `call`'s returned tuple that are read; None when the value is used in
    another way than unpacked or indexed with constants (or unknown), the empty set when it is
    discarded. A negative position (`out[-1]`) counts from the end: `_discards` places it
    once the returned tuple's length is known."""
    up = syntax.parent(call)
    if isinstance(up, ast.Expr):
        return frozenset()
    position = _constant_index(call)
    if position is not None:
        return frozenset({position})  # `make(...)[0]`
    if not (isinstance(up, ast.Assign) and up.value is call and len(up.targets) == 1):
        return None
    target = up.targets[0]
    if isinstance(target, ast.Name):
        return _indexed_reads(up, target.id, index)  # `out = train(...)`, then `out[-1]`
    if not isinstance(target, (ast.Tuple, ast.List)):
        return None
    used: set[int] = set()
    for i, elt in enumerate(target.elts):
        if isinstance(elt, ast.Starred):
            return None
        if not (
            isinstance(elt, ast.Name)
            and (_unread(up, elt.id, index) or folded_only(up, elt.id, index))
        ):
            used.add(i)
    return frozenset(used)


def _constant_index(value: ast.AST) -> int | None:
    """`value[k]` read with an int literal `k` (`-1` too): k; None otherwise."""
    up = syntax.parent(value)
    if not (isinstance(up, ast.Subscript) and up.value is value and isinstance(up.ctx, ast.Load)):
        return None
    k = up.slice
    if isinstance(k, ast.UnaryOp) and isinstance(k.op, ast.USub):
        k, sign = k.operand, -1
    else:
        sign = 1
    if isinstance(k, ast.Constant) and type(k.value) is int:
        return sign * k.value
    return None


def _indexed_reads(stmt: ast.Assign, name: str, index: ModuleIndex) -> frozenset[int] | None:
    """The positions read of the tuple `stmt` binds to `name` when every load of that binding
    indexes it with an int literal (`out[-1]["loss"]`) or tests it against None; None when a
    load uses it another way, or `name` is bound again in its scope (as in `_unread`)."""
    scope = index.scope_of(stmt)
    own = scope.bindings.get(name)
    if own is None or len(own) != 1:
        return None
    used: set[int] = set()
    for load in index.names.get(name, ()):
        if not (isinstance(load, ast.Name) and isinstance(load.ctx, ast.Load)):
            continue
        where = index.scope_of(load)
        if where is not scope and index.lookup(name, where) is not own:
            continue  # another scope's own `name`
        position = _constant_index(load)
        if position is not None:
            used.add(position)
        elif not _none_test(load):
            return None
    return frozenset(used)


def _unread(stmt: ast.Assign, name: str, index: ModuleIndex) -> bool:
    """Nothing reads the value `stmt` binds to `name` but tests against None: `name` is bound
    only there in its scope, and every load that resolves to that binding (in the scope or in
    a nested one) is such a test. Asked of the index's loads of the name, not of the flow
    graph: this runs for every unpacked call of every module's summary."""
    return name == "_" or _indexed_reads(stmt, name, index) == frozenset()


def folded_only(stmt: ast.Assign, name: str, index: ModuleIndex) -> bool:
    """Every load the value `stmt` binds to `name` reaches hands it to a parameter of a def of
    this module that only folds it (`batch_update(branch, i, key, ...)` whose body starts
    `key = random.fold_in(key, i)`): a key folded with the step derives a new key and draws
    nothing from the one it was given, so a consumed key returned into it is not consumed
    again (v32 DP2 trainers: the key `batch_update` returns after drawing from it comes back
    to `batch_update` on the next step, JAX201 x14). Loads that see another binding of the
    name (`init_state(key)` of the first key) do not count; the flow graph tells them apart,
    asked only when some load goes to such a parameter."""
    if not _fold_in_keys(index):
        return False  # no `fold_in` of a name in the module: the common case, answered once
    names = index.names.get(name, ())
    if not any(type(n) is _NAME and _to_folding_param(n, index) for n in names):
        return False
    loads = _loads_seeing(name, index.lookup(name, index.scope_of(stmt)), index)
    folded = [load for load in loads if _to_folding_param(load, index)]
    flow = flow_graphs(index)
    return any(flow.reached_by(load, stmt) for load in folded) and not any(
        flow.reached_by(load, stmt) for load in loads if load not in folded
    )


def _to_folding_param(load: ast.Name, index: ModuleIndex) -> bool:
    """`load` is a positional argument of a call of a def of this module whose parameter
    there is read only as the key of `jax.random.fold_in`."""
    call = syntax.parent(load)
    if type(call) is not _CALL or type(call.func) is not _NAME or load not in call.args:
        return False
    if any(isinstance(a, ast.Starred) for a in call.args):
        return False
    fn = index.resolve_function(call.func)
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    params = syntax.positional_params(fn)
    position = call.args.index(load)
    return position < len(params) and _only_folded(fn, params[position], index)


def _only_folded(fn: ast.FunctionDef | ast.AsyncFunctionDef, name: str, index: ModuleIndex) -> bool:
    """Every load of parameter `name` in `fn` that sees the parameter is the key of a
    `jax.random.fold_in` call, and there is one (`key = random.fold_in(key, i)` rebinds it)."""
    if name not in _fold_in_keys(index):
        return False  # the common case, before any scope lookup or flow graph
    loads = _loads_seeing(name, index.scopes[fn].bindings.get(name), index)
    folds = [load for load in loads if _fold_in_key(load, index)]
    if not folds:
        return False
    arg = next(a for a in (*fn.args.posonlyargs, *fn.args.args) if a.arg == name)
    flow = flow_graphs(index)
    return not any(flow.reached_by(load, arg) for load in loads if load not in folds)


def _loads_seeing(name: str, own: list | None, index: ModuleIndex) -> list[ast.Name]:
    """The loads of `name` (in any scope) that look it up in the bindings `own`."""
    return [
        load
        for load in index.names.get(name, ())
        if isinstance(load, ast.Name)
        and isinstance(load.ctx, ast.Load)
        and index.lookup(name, index.scope_of(load)) is own
    ]


def _fold_in_keys(index: ModuleIndex) -> frozenset[str]:
    """The names the module passes as the key of `jax.random.fold_in` (once per module, kept
    with the index as its flow graphs are)."""
    found = index.fold_in_keys
    if found is None:
        found = index.fold_in_keys = frozenset(
            call.args[0].id
            for call in index.calls
            if type(call) is _CALL
            and call.args
            and type(call.args[0]) is _NAME
            and (getattr(call.func, "attr", None) or getattr(call.func, "id", None)) == "fold_in"
            and index.qualname(call.func) == "jax.random.fold_in"
        )
    return found


def _fold_in_key(load: ast.Name, index: ModuleIndex) -> bool:
    up = syntax.parent(load)
    return (
        type(up) is _CALL
        and bool(up.args)
        and up.args[0] is load
        and index.qualname(up.func) == "jax.random.fold_in"
    )


def _none_test(load: ast.Name) -> bool:
    """`x is None`, `x is not None`: only whether a value came back is read."""
    up = syntax.parent(load)
    return (
        isinstance(up, ast.Compare)
        and len(up.ops) == 1
        and isinstance(up.ops[0], (ast.Is, ast.IsNot))
        and isinstance(up.comparators[0], ast.Constant)
        and up.comparators[0].value is None
        and up.left is load
    )


def discarded_by_callers(
    fn: ast.FunctionDef | ast.AsyncFunctionDef,
    position: int,
    index: ModuleIndex,
    importers: dict[str, frozenset[int] | None] | None,
    length: int | None = None,
) -> bool:
    """Every caller the project can see discards element `position` (`WHOLE`: the returned
    value itself) of what the function `fn` returns (top-level, or nested in a function that
    holds its calls), or hands it only to parameters that fold it (`folded_only`), and
    there is at least one.
    `importers`: the function name -> the positions other modules' calls read (None: some use
    reads it whole), from the project index (`RETURN_USES`); None without one. `length`: the
    returned tuple's length, which places a caller's negative index (None: not known, so a
    negative index may read any element)."""
    home: Scope | None = index.scopes[index.tree]
    if syntax.parent(fn) is not index.tree:  # nested: its callers are in the defining function
        home, importers = index.scope_of(fn).parent, None
        if home is None or home.kind != "function":
            return False
    own = home.bindings.get(fn.name) or []  # type: ignore[union-attr]
    if len(own) != 1 or own[0].node is not fn:
        return False  # bound again: which one a caller gets is unknown
    callers = 0
    if importers and fn.name in importers:
        if not _discards(importers[fn.name], position, length):
            return False
        callers += 1
    for node in index.names.get(fn.name, ()):
        if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)):
            continue
        if index.lookup(fn.name, index.scope_of(node)) is not own:
            continue  # another function's local of the same name
        call = syntax.parent(node)
        if not (isinstance(call, ast.Call) and call.func is node):
            return False  # passed as a value: its callers are unknown
        if not _discards(result_uses(call, index), position, length):
            return False
        callers += 1
    return callers > 0


def _discards(used: frozenset[int] | None, position: int, length: int | None = None) -> bool:
    """A caller reading `used` of the returned tuple leaves element `position` unread (a
    negative read counts from the end of a tuple of `length` elements)."""
    if used is None:
        return False
    if position == WHOLE:
        return not used
    if any(u < 0 for u in used):
        if length is None:
            return False
        used = frozenset(u + length if u < 0 else u for u in used)
    return position not in used


_NAME, _ATTRIBUTE, _CALL, _LOAD = ast.Name, ast.Attribute, ast.Call, ast.Load


def return_uses(
    index: ModuleIndex,
    imports,  # noqa: ANN001 - analysis.project_summary._Imports
    module: str,
    imported: dict[str, str],
    called: dict[str, set | None],
) -> dict:
    """`ModuleSummary.return_uses`: for each function of its own top-level package that this
    module calls or names, the sorted positions of the returned tuple its calls read (`called`:
    `project_data.call_tables`), or None when some use reads it whole or passes the function on
    as a value (a load of an imported name, `imported`: `ModuleSummary.imported`, that is not
    the callee of a call)."""
    root = module.split(".", 1)[0] if "." in module else ""
    out = dict(called)
    for local, target in imported.items():
        if root and target.split(".", 1)[0] != root:
            continue
        for node in index.names.get(local, ()):
            # exact classes (the parser makes no subclasses): this runs on every load
            if not (type(node) is _NAME and type(node.ctx) is _LOAD):
                continue
            chain: ast.AST = node
            up = syntax.parent(chain)
            while type(up) is _ATTRIBUTE:
                chain, up = up, syntax.parent(up)
            if not (type(up) is _CALL and up.func is chain):  # not a call's callee
                name = imports.dotted(chain, root)
                if name:
                    out[name] = None
    return {t: None if u is None else sorted(u) for t, u in sorted(out.items())}
