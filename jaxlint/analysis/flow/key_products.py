"""Where a helper's key-derived values go: which elements of its return value carry them.

`derived_return_paths(index, fn, params)` follows what a function computes from its key
parameters `params` (the ones it consumes) and answers the tuple paths of its return value
that hold key-derived values (`(1, 1)` for `eval_keys` in `return f, (params, eval_keys)`;
`()` for the whole value), or None when it cannot prove that nothing derived leaves the
function any other way. Derived values may only flow through pure computations: `jax.random`
and `jax.numpy` calls, a few array methods (`.reshape`), tuple/list displays, subscripts and
assignments to plain names, into a `return`. Anything else -- passed to any other call,
stored on an attribute or subscript, read by a nested function, `global`/`nonlocal`, a
generator, a decorated function, a `return` whose value cannot be split into paths --
is None (unknown).

`products_dead(call, paths, index)` is True when the caller binds each of those paths to plain names
that are all dead after the call (rebound before any read on every path:
analysis/deadness.py). KeyFlow then does not count the helper call as a consumption of the
keys it passes (no value in use comes from it), as for a dead `jax.random` draw.
"""

from __future__ import annotations

import ast

from jaxlint.analysis import syntax
from jaxlint.analysis.deadness import names_dead_after
from jaxlint.analysis.flow.key_terms import random_function
from jaxlint.analysis.imports import ModuleIndex

__all__ = ["derived_return_paths", "products_dead"]

Path = tuple[int, ...]

# methods of a `jax.Array` that return a new array and keep no reference to anything
_ARRAY_METHODS = frozenset({"reshape", "astype", "squeeze", "ravel", "flatten", "transpose"})


def derived_return_paths(
    index: ModuleIndex, fn: ast.AST, params: set[str]
) -> frozenset[Path] | None:
    if not isinstance(fn, ast.FunctionDef) or fn.decorator_list or not params:
        return None
    nodes = list(ast.walk(fn))
    if any(isinstance(n, (ast.Yield, ast.YieldFrom, ast.Global, ast.Nonlocal)) for n in nodes):
        return None
    tainted = set(params)
    while True:
        grown = set(tainted)
        for node in nodes:
            if isinstance(node, ast.Assign) and syntax.mentions(node.value, tainted):
                for t in node.targets:
                    names = syntax.plain_target_names(t)
                    if names is None:
                        return None  # stored on an object or into a container
                    grown.update(names)
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
        if not _pure_context(index, node):
            return None
    for node in nodes:
        if isinstance(node, ast.Return) and node.value is not None:
            if syntax.enclosing_function(node) is fn:
                _return_paths(node.value, tainted, (), paths)
    return frozenset(paths)


def _pure_context(index: ModuleIndex, node: ast.AST) -> bool:
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
            q = index.qualname(parent.func)
            if random_function(index, parent) is None and not (q or "").startswith("jax.numpy."):
                return False
            cur = parent
            continue
        if isinstance(parent, ast.Attribute) and parent.value is cur:
            call = syntax.parent(parent)
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
    elif syntax.mentions(expr, tainted):
        out.add(prefix)


def products_dead(call: ast.Call, paths: frozenset[Path], index: ModuleIndex) -> bool:
    """The call is the whole value of an assignment whose targets bind every path in `paths`
    to plain names, all dead after the assignment. False when `paths` is empty (the helper
    consumed the key and returned nothing derived: still a consumption)."""
    if not paths:
        return False
    stmt = syntax.parent(call)
    if not (isinstance(stmt, ast.Assign) and stmt.value is call):
        return False
    names: list[str] = []
    for target in stmt.targets:
        for path in paths:
            found = _names_at(target, path)
            if found is None:
                return False
            names.extend(found)
    return bool(names) and names_dead_after(stmt, names, index)


def _names_at(target: ast.AST, path: Path) -> list[str] | None:
    cur = target
    for i in path:
        if isinstance(cur, ast.Name):
            break  # the whole sub-value is bound to one name
        if not isinstance(cur, (ast.Tuple, ast.List)) or any(
            isinstance(e, ast.Starred) for e in cur.elts
        ):
            return None
        if i >= len(cur.elts):
            return None
        cur = cur.elts[i]
    return syntax.plain_target_names(cur)
