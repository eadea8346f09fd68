"""Helpers that return a host NumPy array of Python values, so their result is never traced.

meliad's `relative_positions_np(num_queries: int, num_keys: int)` builds
`np.arange(0, num_queries).reshape(...)`: a caller in a traced function gets a constant, not a
tracer. `returns_host_numpy` proves that by the form of every return (`kinds.static_functions`
puts such helpers in the project summary's `static_returns`). Only operands that cannot be
tracers are accepted: a NumPy call of a tracer fails while tracing, and NumPy arithmetic with a
tracer gives a tracer.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.imports import ModuleIndex, dotted
from jaxlint.analysis.syntax import child_nodes, own_returns, parent

# methods of a NumPy array that give a NumPy array (or Python value) back
_HOST_METHODS = frozenset({"reshape", "astype", "transpose", "ravel", "flatten", "copy", "T"})
_SCALARS = frozenset({"int", "float", "bool", "complex"})
MAX_HOST_BODY = 30  # statements: a small helper, so the walk stays cheap
MAX_DEPTH = 12


def _scalar_annotation(ann: ast.expr | None) -> bool:
    """`int`, `Optional[int]`, `int | None`: a Python scalar (or None), never an array."""
    if ann is None:
        return False
    if isinstance(ann, ast.Name):
        return ann.id in _SCALARS
    if isinstance(ann, ast.Subscript) and dotted(ann.value) in ("Optional", "typing.Optional"):
        return isinstance(ann.slice, ast.Name) and ann.slice.id in _SCALARS
    if isinstance(ann, ast.BinOp) and isinstance(ann.op, ast.BitOr):  # `int | None`
        sides = (ann.left, ann.right)
        return any(isinstance(x, ast.Name) and x.id in _SCALARS for x in sides) and all(
            (isinstance(x, ast.Name) and x.id in _SCALARS)
            or (isinstance(x, ast.Constant) and x.value is None)
            for x in sides
        )
    return False


def _numpy_dtype(index: ModuleIndex, node: ast.AST) -> bool:
    """`np.int32`, `jnp.float32` as a dtype argument."""
    q = index.qualname(node) or ""
    return q.startswith(("numpy.", "jax.numpy.")) and isinstance(node, ast.Attribute)


class _HostValues:
    """The walk of one helper: its parameters' annotations and what each local is assigned."""

    def __init__(self, index: ModuleIndex, fn: ast.AST) -> None:
        self.index = index
        self.fn = fn
        args = fn.args  # type: ignore[attr-defined]
        self.params = {
            a.arg: a.annotation for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)
        }
        self._assigned: dict[str, list[ast.expr | None]] = {}

    def assigned(self, name: str) -> list[ast.expr | None]:
        """What the local `name` is assigned (None: bound otherwise): the stores of the
        index's `Name` nodes of the function's own scope (those a walk of the function finds,
        leaving nested functions, lambdas and classes out), in no particular order. Asked per
        name: most helpers are refused by the form of their returns before any local is
        looked up, and a walk of the whole function for the first one was most of the cost."""
        found = self._assigned.get(name)
        if found is None:
            scope = self.index.scopes.get(self.fn)
            found = self._assigned[name] = [
                up.value if isinstance(up := parent(n), ast.Assign) and up.targets == [n] else None
                for n in self.index.names.get(name, ())
                if getattr(n, "jl_scope", None) is scope and not isinstance(n.ctx, ast.Load)
            ]
        return found

    def host(self, node: ast.AST | None, seen: frozenset[str], depth: int = 0) -> bool:
        """`node` is a Python value or a NumPy array of such values."""
        if node is None or depth > MAX_DEPTH:
            return False
        if isinstance(node, ast.Constant):
            return True
        if isinstance(node, ast.Name):
            if node.id in seen:
                return True  # `offset = num_keys - num_queries` inside `if offset is None`
            if node.id in self.params and not _scalar_annotation(self.params[node.id]):
                return False
            values = self.assigned(node.id)
            return all(self.host(v, seen | {node.id}, depth + 1) for v in values) and (
                bool(values) or node.id in self.params
            )
        if isinstance(node, ast.UnaryOp):
            return self.host(node.operand, seen, depth + 1)
        if isinstance(node, ast.BinOp):
            return self.host(node.left, seen, depth + 1) and self.host(node.right, seen, depth + 1)
        if isinstance(node, ast.Tuple):
            return all(self.host(e, seen, depth + 1) for e in node.elts)
        if isinstance(node, ast.Attribute) and node.attr in _HOST_METHODS:
            return self.numpy_value(node.value, seen, depth + 1)
        if isinstance(node, ast.Call):
            return self.numpy_value(node, seen, depth)
        return False

    def numpy_value(self, node: ast.AST, seen: frozenset[str], depth: int) -> bool:
        """`node` is a `numpy.*` call (or array method) of host values."""
        if isinstance(node, ast.Name):
            return self.host(node, seen, depth + 1)
        if not isinstance(node, ast.Call):
            return isinstance(node, ast.Attribute) and self.host(node, seen, depth + 1)
        func = node.func
        operands = [*node.args, *(kw.value for kw in node.keywords)]
        if isinstance(func, ast.Attribute) and func.attr in _HOST_METHODS:
            if not self.numpy_value(func.value, seen, depth + 1):
                return False
        elif not (self.index.qualname(func) or "").startswith("numpy."):
            return False
        return all(self.host(a, seen, depth + 1) or _numpy_dtype(self.index, a) for a in operands)

    def from_numpy(self, node: ast.AST, seen: frozenset[str], depth: int = 0) -> bool:
        """`node` holds a NumPy result (not only Python scalars: those may be traced)."""
        if depth > MAX_DEPTH:
            return False
        if isinstance(node, ast.Call):
            return True
        if isinstance(node, ast.Name):
            return node.id not in seen and any(
                v is not None and self.from_numpy(v, seen | {node.id}, depth + 1)
                for v in self.assigned(node.id)
            )
        return any(self.from_numpy(c, seen, depth + 1) for c in child_nodes(node))


def returns_host_numpy(index: ModuleIndex, fn: ast.AST) -> bool:
    """`fn` returns a host NumPy array of Python values: each return is built from `numpy.*`
    calls whose arguments are all such values, their array methods (`.reshape`), and
    arithmetic of those with literals, parameters annotated as Python scalars (`int`,
    `Optional[int]`) and locals assigned only such values."""
    body = getattr(fn, "body", [])
    if not body or len(body) > MAX_HOST_BODY:
        return False
    values = [r.value for r in own_returns(fn)]
    if not values:
        return False
    walk = _HostValues(index, fn)
    return all(
        v is not None and walk.host(v, frozenset()) and walk.from_numpy(v, frozenset())
        for v in values
    )
