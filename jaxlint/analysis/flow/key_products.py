"""Where a helper's key-derived values go: which elements of its return value carry them.

`derived_return_paths(index, fn, params)` follows what a function computes from its key
parameters `params` (the ones it consumes) and answers the tuple paths of its return value
that hold key-derived values (`(1, 1)` for `eval_keys` in `return f, (params, eval_keys)`;
`()` for the whole value; `("weights",)` for the value under a string key of a returned dict
display), or None when it cannot prove that nothing derived leaves the function any other
way. Derived values may only flow through computations that keep them in their result:
`jax.random` and `jax.numpy` calls, a few array methods (`.reshape`), calls of functions
named plainly (`_init_mlp(key, ...)`, `mod.init(key)`: what they return is derived),
tuple/list/dict displays, list comprehensions and generators over derived values, subscripts, assignments to plain names, stores into a container
the function itself created (`weights["w1"] = ...`, `layers.append(...)`: the container is
derived), into a `return`. Anything else -- a method of another object, stored on an
attribute or into a parameter's container, read by a nested function, `global`/`nonlocal`,
a generator, a decorated function, a `return` whose value cannot be split into paths --
is None (unknown).

`products_dead(call, paths, index)` is True when the caller binds each of those paths to plain names
that are all dead after the call (rebound before any read on every path:
analysis/deadness.py). KeyFlow then does not count the helper call as a consumption of the
keys it passes (no value in use comes from it), as for a dead `jax.random` draw.

`products_unread(call, paths, index)` is True when every derived path starts at a string
key and the caller reads the result only under other keys: `init(key, ...)["cfg"]`, or
`model = init(key, ...)` read only as `model["cfg"]` (v16 rows, tuning material: jaxQFT's
`_init_local_patch_mlp(key, ...)` called for its `["cfg"]`, and `init_mgflow(key, ...)` on
the resume path, whose weights come from the checkpoint: JAX201 x23).
"""

from __future__ import annotations

import ast

from jaxlint.analysis import syntax
from jaxlint.analysis.deadness import loads_of_value, names_dead_after, value_is_dead
from jaxlint.analysis.flow.key_terms import random_function
from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.jit_sites import jit_wrapper

__all__ = [
    "derived_return_paths",
    "dropped_compiled_call",
    "path_order",
    "products_dead",
    "products_unread",
]

Path = tuple[int | str, ...]

# methods of a `jax.Array` that return a new array and keep no reference to anything
_ARRAY_METHODS = frozenset({"reshape", "astype", "squeeze", "ravel", "flatten", "transpose"})


def derived_return_paths(
    index: ModuleIndex, fn: ast.AST, params: set[str]
) -> frozenset[Path] | None:
    if not isinstance(fn, ast.FunctionDef) or not params:
        return None
    if not all(jit_wrapper(index, d) is not None for d in fn.decorator_list):
        # a decorator may keep or change anything; a jit (`@jax.jit`, `@partial(jax.jit,
        # ...)`) returns what `fn` does, with no Python side effects (v20 rows: a jitted step)
        return None
    nodes = list(syntax.walk(fn))
    if any(isinstance(n, (ast.Yield, ast.YieldFrom, ast.Global, ast.Nonlocal)) for n in nodes):
        return None
    tainted = set(params)
    owned = _own_containers(fn, nodes)
    while True:
        grown = set(tainted)
        for node in nodes:
            if isinstance(node, ast.Assign) and syntax.mentions(node.value, tainted):
                for t in node.targets:
                    names = _stored_names(t, owned)
                    if names is None:
                        return None  # stored on an object or into a container
                    grown.update(names)
            elif isinstance(node, ast.comprehension) and syntax.mentions(node.iter, tainted):
                names = syntax.plain_target_names(node.target)
                if names is None:
                    return None
                grown.update(names)
            elif _appends(node, owned) and syntax.mentions(node, tainted):
                grown.add(node.func.value.id)  # type: ignore[attr-defined]
        if grown == tainted:
            break
        tainted = grown
    paths: set[Path] = set()
    for node in nodes:
        if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)):
            continue
        if node.id not in tainted:
            continue
        if syntax.enclosing_function(node) is not fn:
            return None  # a nested function or lambda reads it
        if not _pure_context(index, node, owned):
            return None
    for node in nodes:
        if isinstance(node, ast.Return) and node.value is not None:
            if syntax.enclosing_function(node) is fn:
                _return_paths(node.value, tainted, (), paths)
    return frozenset(paths)


def _own_containers(fn: ast.FunctionDef, nodes: list[ast.AST]) -> frozenset[str]:
    """The names the function binds only to a new container (`weights = {}`, `out: list =
    []`, `layers = dict(...)`) and never to anything else, parameters excluded: a store
    into one of them keeps the value inside the function until it is returned."""
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    params.update(a.arg for a in (fn.args.vararg, fn.args.kwarg) if a is not None)
    fresh: set[str] = set()
    other: set[str] = set(params)
    for node in nodes:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.With, ast.AugAssign, ast.NamedExpr)):
            other.update(
                n.id
                for n in ast.walk(node)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
            )
            continue
        else:
            continue
        new = _new_container(value)
        for t in targets:
            if isinstance(t, ast.Name):
                (fresh if new else other).add(t.id)
            else:
                other.update(syntax.plain_target_names(t) or ())
    return frozenset(fresh - other)


def _new_container(value: ast.AST) -> bool:
    if isinstance(value, (ast.Dict, ast.List)) and not any(
        isinstance(e, ast.Starred) for e in getattr(value, "elts", ())
    ):
        return not value.values if isinstance(value, ast.Dict) else not value.elts
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id in ("dict", "list")
        and not value.args
        and not value.keywords
    )


def _stored_names(target: ast.AST, owned: frozenset[str]) -> list[str] | None:
    """The names an assignment target makes derived: plain names, or the root of a store
    into a container the function created (`weights["w"][i] = ...`); None otherwise."""
    names = syntax.plain_target_names(target)
    if names is not None:
        return names
    cur = target
    while isinstance(cur, ast.Subscript):
        cur = cur.value
    if cur is not target and isinstance(cur, ast.Name) and cur.id in owned:
        return [cur.id]
    return None


def _appends(node: ast.AST, owned: frozenset[str]) -> bool:
    """`layers.append(...)` on a container the function created."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "append"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id in owned
        and len(node.args) == 1
        and not node.keywords
    )


def _plain_function(func: ast.AST, index: ModuleIndex) -> bool:
    """A call of a function named plainly: a def or class of the module, an imported name,
    an attribute of an imported module (`mod.init`), a copying builtin (`tuple`). Its
    result keeps what it derives from its arguments. A parameter or a local callable may
    be anything, and a method of some other object may keep them in that object."""
    if isinstance(func, ast.Name):
        found = index.lookup(func.id, index.scope_of(func))
        if found is None:
            return func.id in _COPYING_BUILTINS
        return all(b.kind in ("import", "def", "class") for b in found)
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        found = index.lookup(func.value.id, index.scope_of(func))
        return bool(found) and all(b.kind == "import" for b in found)  # type: ignore[union-attr]
    return False


_COPYING_BUILTINS = frozenset({"tuple", "list", "dict", "int", "float", "len", "zip"})


def _pure_context(index: ModuleIndex, node: ast.AST, owned: frozenset[str]) -> bool:
    """A read of a derived value whose result can only reach an assignment to plain names or
    a `return` through pure computations (see the module docstring)."""
    cur = node
    while True:
        parent = syntax.parent(cur)
        if parent is None:
            return False
        if isinstance(parent, ast.keyword):
            cur = parent
            continue
        if isinstance(parent, ast.Call):
            if cur is parent.func:
                return False
            if _appends(parent, owned):
                return True  # the container is derived (checked when tainting)
            q = index.qualname(parent.func)
            if (
                random_function(index, parent) is None
                and not (q or "").startswith("jax.numpy.")
                and not _plain_function(parent.func, index)
            ):
                return False
            cur = parent
            continue
        if isinstance(parent, ast.comprehension) and cur is parent.iter:
            cur = syntax.parent(parent)  # type: ignore[assignment]
            continue
        if isinstance(parent, (ast.ListComp, ast.GeneratorExp)) and cur is parent.elt:
            cur = parent
            continue
        if isinstance(parent, ast.Dict) and any(v is cur for v in parent.values):
            cur = parent
            continue
        if isinstance(parent, (ast.BinOp, ast.UnaryOp)):
            cur = parent  # `a + normal(key, s)`: arithmetic keeps it derived, and pure
            continue
        if isinstance(parent, ast.Attribute) and parent.value is cur:
            call = syntax.parent(parent)
            if call is not None and _appends(call, owned) and call.func is parent:  # type: ignore[attr-defined]
                return True  # `layers.append(...)`: stays in the container
            if not (
                parent.attr in _ARRAY_METHODS and isinstance(call, ast.Call) and call.func is parent
            ):
                return False
            cur = call
            continue
        if isinstance(parent, (ast.Tuple, ast.List, ast.Starred)) and isinstance(
            getattr(parent, "ctx", None), ast.Load
        ):
            cur = parent
            continue
        if isinstance(parent, ast.Subscript) and parent.value is cur:
            if isinstance(parent.ctx, ast.Store):
                return True  # a store into it (the stored value is checked on its own)
            cur = parent
            continue
        if isinstance(parent, ast.Assign) and parent.value is cur:
            return True  # the targets are plain names (checked when tainting)
        if isinstance(parent, ast.Return):
            return True
        return False


def _return_paths(expr: ast.AST, tainted: set[str], prefix: Path, out: set[Path]) -> None:
    if isinstance(expr, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in expr.elts):
        for i, e in enumerate(expr.elts):
            _return_paths(e, tainted, (*prefix, i), out)
    elif isinstance(expr, ast.Dict) and all(
        isinstance(k, ast.Constant) and isinstance(k.value, str) for k in expr.keys
    ):
        for k, v in zip(expr.keys, expr.values):
            _return_paths(v, tainted, (*prefix, k.value), out)  # type: ignore[union-attr]
    elif syntax.mentions(expr, tainted):
        out.add(prefix)


def path_order(path: Path) -> list[tuple[int, int | str]]:
    """A sort key for paths that mix tuple positions and dict keys."""
    return [(1, c) if isinstance(c, str) else (0, c) for c in path]


def products_dead(call: ast.Call, paths: frozenset[Path], index: ModuleIndex) -> bool:
    """The call is the whole value of an assignment whose targets bind every path in `paths`
    to plain names, all dead after the assignment. False when `paths` is empty (the helper
    consumed the key and returned nothing derived: still a consumption)."""
    if not paths:
        return False
    stmt = syntax.parent(call)
    if not (isinstance(stmt, ast.Assign) and stmt.value is call):
        # the whole result dropped, or only waited for (`step(a, key).block_until_ready()`:
        # a compile warm-up, v20 rows): nothing derived from the key is read
        return value_is_dead(call, index)
    names: list[str] = []
    for target in stmt.targets:
        for path in paths:
            found = _names_at(target, path)
            if found is None:
                return False
            names.extend(found)
    return bool(names) and names_dead_after(stmt, names, index)


def dropped_compiled_call(
    index: ModuleIndex, call: ast.Call, target: ast.AST | None, *, aliased: bool
) -> bool:
    """`call` runs the jitted def `target` of this module (`@jax.jit`, `@partial(jax.jit,
    ...)`, or through a `step = jax.jit(step_fn)` alias: `aliased`) and its whole value is
    dropped or only waited for (`step_fn(A, b, key).block_until_ready()`: a compile warm-up).
    A compiled function hands its draws out only through what it returns (its Python side
    effects run once, at trace time), so nothing derived from the key is read, whatever the
    body computes: `products_dead`'s per-path proof is not needed. A body that calls back to
    the host (`jax.debug.callback`, `io_callback`, `pure_callback`) may still show the
    draws. (v20 rows, tuning material: JAX-AMG demo/solver_cache_benchmark.py:50-53 and
    :73-76, a warm-up `step_fn(A, b, key)` whose body ends in a library solve, JAX201.)"""
    if not isinstance(target, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    decorators = target.decorator_list
    if decorators:
        jitted = all(jit_wrapper(index, d) is not None for d in decorators)
    else:
        jitted = aliased
    if not jitted or not value_is_dead(call, index):
        return False
    return not any(
        isinstance(n, ast.Call) and "callback" in (index.qualname(n.func) or "")
        for n in ast.walk(target)
    )


def products_unread(call: ast.Call, paths: frozenset[Path], index: ModuleIndex) -> bool:
    """Every path in `paths` starts at a string key, and the call's value is read only under
    other keys: subscripted at once (`init(key)["cfg"]`), or bound to one plain name whose
    every load that sees it is such a subscript (see the module docstring)."""
    firsts = {p[0] for p in paths if p}
    if not paths or not all(p and isinstance(p[0], str) for p in paths):
        return False
    parent = syntax.parent(call)
    if isinstance(parent, ast.Subscript) and parent.value is call:
        return _other_key(parent, firsts)
    loads = loads_of_value(call, index)
    if loads is None:
        return False
    return all(
        isinstance(up := syntax.parent(load), ast.Subscript)
        and up.value is load
        and _other_key(up, firsts)
        for load in loads
    )


def _other_key(sub: ast.Subscript, firsts: set[int | str]) -> bool:
    key = sub.slice
    return (
        isinstance(sub.ctx, ast.Load)
        and isinstance(key, ast.Constant)
        and isinstance(key.value, str)
        and key.value not in firsts
    )


def _names_at(target: ast.AST, path: Path) -> list[str] | None:
    cur = target
    for i in path:
        if isinstance(cur, ast.Name):
            break  # the whole sub-value is bound to one name
        if isinstance(i, str):
            return None
        if not isinstance(cur, (ast.Tuple, ast.List)) or any(
            isinstance(e, ast.Starred) for e in cur.elts
        ):
            return None
        if i >= len(cur.elts):
            return None
        cur = cur.elts[i]
    return syntax.plain_target_names(cur)
