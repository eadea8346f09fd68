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
from jaxlint.analysis.imports import ModuleIndex

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
        if not (isinstance(elt, ast.Name) and _unread(up, elt.id, index)):
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
    value itself) of what the top-level function `fn` returns, and there is at least one.
    `importers`: the function name -> the positions other modules' calls read (None: some use
    reads it whole), from the project index (`RETURN_USES`); None without one. `length`: the
    returned tuple's length, which places a caller's negative index (None: not known, so a
    negative index may read any element)."""
    if syntax.parent(fn) is not index.tree:
        return False
    module = index.scopes[index.tree]
    own = module.bindings.get(fn.name) or []
    if len(own) != 1 or own[0].node is not fn:
        return False  # bound again at module level: which one a caller gets is unknown
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
