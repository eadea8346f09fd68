"""Static pytree fields that survive a loop's rebinding of their object.

A flax struct dataclass (`struct.PyTreeNode`, `flax.training.train_state.TrainState`) is
rebuilt every training step by `state = update(state, grads)`, where `update` returns
`state.replace(params=..., opt_state=...)` or `state.apply_gradients(grads=...)`. Both copy
the object with the named fields changed and every other field kept. A static field
(`struct.field(pytree_node=False)`: the model, `apply_fn`, `tx`) is auxiliary data: it is
not traced, jit hands the same Python object back, and `replace` keeps it. So
`state.model.apply` is the same bound method, hashing equal, in every step, although
`state` itself is a new object: a static argument drawn from it repeats (one compile).

The fact is proved, not assumed: every binding of the object's name in the loop must be
such a copy (in the loop body, or as the return of a function of this module the loop
calls with that name, followed through the function's own rebindings, its tuple returns
and up to MAX_DEPTH calls deep), and none of the copies may name the field. Anything else
(a constructor, an unknown call, a loop target, `**kwargs`) leaves the field unknown.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from jaxlint.analysis.syntax import bind_arguments, target_names, walk_scope

# methods that copy a flax struct dataclass with only the named fields changed
# (`flax.struct.dataclass.replace`; `TrainState.apply_gradients` replaces step, params and
# opt_state, with any extra keywords)
COPY_METHODS = frozenset({"replace", "apply_gradients"})

# static fields of `flax.training.train_state.TrainState` (`struct.field(pytree_node=False)`)
TRAIN_STATE_MODULE = "flax.training.train_state"
TRAIN_STATE_STATIC = frozenset({"apply_fn", "tx"})

MAX_DEPTH = 4

Resolve = Callable[[ast.Call], "ast.AST | None"]


def static_field_read(expr: ast.AST) -> tuple[str, str] | None:
    """(name, field) when `expr` is an attribute chain `name.field[.more...]` (for
    `state.model.apply`: ("state", "model")), else None."""
    node = expr
    chain: list[str] = []
    while isinstance(node, ast.Attribute):
        chain.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or not chain:
        return None
    return node.id, chain[-1]


def imports_train_state(imported: dict[str, frozenset[str]]) -> bool:
    """The module imports flax's TrainState (or its module)."""
    return any(
        q == TRAIN_STATE_MODULE or q.startswith(TRAIN_STATE_MODULE + ".")
        for qs in imported.values()
        for q in qs
    )


def bindings_keep(scope: ast.AST, name: str, field: str, resolve: Resolve, depth: int = 0) -> bool:
    """Every binding of `name` in `scope` (a loop, or a function body; nested functions are
    not entered) copies the object `name` held with `field` kept (see the module doc)."""
    if depth > MAX_DEPTH:
        return False
    for node in walk_scope(scope):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if name not in set(target_names(target)):
                    continue
                if not _assigned_keeps(target, node.value, name, field, resolve, depth):
                    return False
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.NamedExpr)):
            if name in set(target_names(node.target)):
                return False
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            if name in set(target_names(node.target)):
                return False
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                if item.optional_vars is not None and name in set(target_names(item.optional_vars)):
                    return False
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name == name and node is not scope:
                return False
        elif isinstance(node, (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal)):
            names = (
                [a.asname or a.name.split(".")[0] for a in node.names]
                if isinstance(node, (ast.Import, ast.ImportFrom))
                else node.names
            )
            if name in names:
                return False
    return True


def _assigned_keeps(
    target: ast.AST, value: ast.AST, name: str, field: str, resolve: Resolve, depth: int
) -> bool:
    """`target = value` binds `name` to a copy of its old object with `field` kept:
    `name = name.replace(...)`, `name = f(name, ...)` or `name, *rest = f(name, ...)` where
    `f`'s returns (that element of them) are such copies."""
    position: int | None = None
    if isinstance(target, ast.Tuple):
        for i, elt in enumerate(target.elts):
            if isinstance(elt, ast.Starred):
                return False
            if isinstance(elt, ast.Name) and elt.id == name:
                position = i
        if position is None:
            return False
        if isinstance(value, ast.Tuple):
            if len(value.elts) != len(target.elts):
                return False
            return _copy_keeps(value.elts[position], name, field)
    elif not (isinstance(target, ast.Name) and target.id == name):
        return False
    if position is None and _copy_keeps(value, name, field):
        return True
    if not isinstance(value, ast.Call):
        return False
    fn = resolve(value)
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    params = [
        p
        for p, arg in bind_arguments(value, fn).items()
        if isinstance(arg, ast.Name) and arg.id == name
    ]
    if len(params) != 1:
        return False
    return returns_keep(fn, params[0], field, position, resolve, depth + 1)


def returns_keep(
    fn: ast.AST, param: str, field: str, position: int | None, resolve: Resolve, depth: int
) -> bool:
    """Every return of `fn` (its element `position` when not None) is `param` itself, kept
    by `fn`'s own rebindings, or a copy of it that keeps `field`."""
    returns = [n for n in walk_scope(fn) if isinstance(n, ast.Return)]
    if not returns or depth > MAX_DEPTH:
        return False
    rebinds_ok: bool | None = None
    for ret in returns:
        value = ret.value
        if position is not None:
            if not isinstance(value, ast.Tuple) or len(value.elts) <= position:
                return False
            if any(isinstance(e, ast.Starred) for e in value.elts[: position + 1]):
                return False
            value = value.elts[position]
        if value is None or not _copy_keeps(value, param, field, allow_name=True):
            return False
        if rebinds_ok is None:
            rebinds_ok = bindings_keep(fn, param, field, resolve, depth)
        if not rebinds_ok:
            return False
    return True


def _copy_keeps(value: ast.AST, name: str, field: str, *, allow_name: bool = False) -> bool:
    """`value` is `name.replace(...)` / `name.apply_gradients(...)` (chained) not naming
    `field` (nor passing positional or `**` arguments), or `name` itself when allowed."""
    if isinstance(value, ast.Name):
        return allow_name and value.id == name
    if not (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr in COPY_METHODS
    ):
        return False
    if value.args or any(kw.arg is None or kw.arg == field for kw in value.keywords):
        return False
    return _copy_keeps(value.func.value, name, field, allow_name=True)
