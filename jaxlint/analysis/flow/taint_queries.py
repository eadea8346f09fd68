"""Questions rules ask about a finished taint analysis: is this a boolean mask, may this
value reach a place that needs a concrete (host) value.

Why a module of its own: these are read-only queries over the levels `flow/taint.py` computed
(and the mask facts it records on the way); they add no transfer function. `TaintAnalysis`
inherits them, so rules keep calling `ctx.taint.is_bool_mask(node)`.
"""

from __future__ import annotations

import ast

from jaxlint.analysis import syntax
from jaxlint.analysis.calls import CallGraph
from jaxlint.analysis.flow.levels import Level
from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.jax_api import (
    CONCRETE_METHODS,
    JAX_ARRAY_MODULES,
    MASK_FUNCTIONS,
    SHAPE_FIRST,
    SHAPE_KEYWORDS,
    SHAPE_METHODS,
    SHAPE_SECOND,
    STATIC_ATTRS,
)


class TaintQueries:
    """Mixin of `TaintAnalysis`: the queries over its levels."""

    index: ModuleIndex
    calls: CallGraph  # what each call runs (analysis/calls.py)
    # expression -> level, filled by the analysis; keyed by the node, not `id(node)`: ids
    # are multiples of 16 and an int hashes to itself, so an id-keyed dict probes more
    levels: dict[ast.AST, Level]
    mask_loads: dict[ast.AST, bool]
    mask_params: dict[ast.AST, dict[str, bool]]

    def level(self, node: ast.AST) -> Level:
        return self.levels.get(node, Level.NONE)

    def is_traced(self, node: ast.AST) -> bool:
        """Holds a traced value (array or pytree part); container literals excluded."""
        return self.level(node) >= Level.TREE

    def is_array(self, node: ast.AST) -> bool:
        return self.level(node) == Level.ARRAY

    def element_levels(self, target: ast.AST, value: ast.AST) -> tuple[Level, ...] | None:
        """The level each element of a tuple or list target gets from `value`, when the parts
        are known: a tuple display, a helper's returned tuple, or a library call whose parts
        differ in kind (`flat, self.unravel = ravel_pytree(p)`: the unravel function is a
        Python callable, not a tracer; v31 CompPhysics notebooks, JAX502 x16). None when
        unknown (every element then has the whole value's level)."""
        if not isinstance(target, (ast.Tuple, ast.List)):
            return None
        if any(isinstance(e, ast.Starred) for e in target.elts):
            return None
        n = len(target.elts)
        if isinstance(value, (ast.Tuple, ast.List)):
            if len(value.elts) != n or any(isinstance(e, ast.Starred) for e in value.elts):
                return None
            return tuple(self.level(v) for v in value.elts)
        return self._call_elements(value, n)

    def _call_elements(self, value: ast.AST | None, n: int) -> tuple[Level, ...] | None:
        raise NotImplementedError  # TaintAnalysis's (flow/taint.py)

    def traced_name(self, node: ast.AST) -> str | None:
        """A traced variable inside `node`, to name in messages."""
        for sub in syntax.walk(node):
            if isinstance(sub, ast.Name) and self.level(sub) >= Level.TREE:
                return sub.id
        return None

    def is_bool_mask(self, node: ast.AST, _depth: int = 0) -> bool:
        """A traced boolean array: a comparison, `jnp.isnan`/`logical_*`/..., `&`/`|`/`~` of
        masks, or a local name bound once to one of these."""
        if _depth > 6 or not self.is_traced(node):
            return False
        if isinstance(node, ast.Compare):
            return not any(
                isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in node.ops
            )
        if isinstance(node, ast.Call):
            q = self.index.qualname(node.func) or ""
            if q.startswith("jax.numpy.") and q[len("jax.numpy.") :] in MASK_FUNCTIONS:
                return True
            func = node.func
            if (
                isinstance(func, ast.Attribute)
                and func.attr == "astype"
                and len(node.args) == 1
                and (
                    self.index.qualname(node.args[0]) in ("bool", "jax.numpy.bool_", "numpy.bool_")
                )
            ):
                return True
            # a helper of this module whose every return value is a mask
            callee = self.calls.function(node)
            if isinstance(callee, ast.Lambda):
                return self.is_bool_mask(callee.body, _depth + 1)
            if callee is None:
                return False
            returns = [
                r.value
                for r in ast.walk(callee)
                if isinstance(r, ast.Return)
                and r.value is not None
                and self.index.enclosing_function(r) is callee
            ]
            return bool(returns) and all(self.is_bool_mask(r, _depth + 1) for r in returns)
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
            return self.is_bool_mask(node.left, _depth + 1) and self.is_bool_mask(
                node.right, _depth + 1
            )
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
            return self.is_bool_mask(node.operand, _depth + 1)
        if isinstance(node, ast.Name):
            flow = self.mask_loads.get(node)
            if flow is not None:  # the assignments that reach this use, on every path
                return flow
            b = self.index.binding(node.id, self.index.scope_of(node))
            if b is not None and b.kind == "assign" and b.value is not None:
                return self.is_bool_mask(b.value, _depth + 1)
            if b is not None and b.kind == "param" and b.node is not None:
                owner = self.index.enclosing_function(b.node)
                return bool(self.mask_params.get(owner, {}).get(node.id))
        return False

    def may_need_concrete(self, node: ast.AST, _depth: int = 0) -> bool:
        """The value of `node` may reach a place that needs a concrete (host) value.

        False only when every use is proven array-friendly: arithmetic, comparisons,
        containers and indexing feeding jax functions (outside their shape parameters),
        array methods, `return`, or a name whose every later use is one of these. A safe
        `np.X` -> `jnp.X` rewrite needs that: `tuple(np.array(...) // 2)` used as a pooling
        window works with NumPy and breaks with a traced jnp array.
        """
        if _depth > 6:
            return True
        parent = syntax.parent(node)
        if parent is None:
            return True
        if isinstance(parent, (ast.BinOp, ast.UnaryOp, ast.Compare, ast.Tuple, ast.List)):
            if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Mod):
                if isinstance(parent.left, (ast.Constant, ast.JoinedStr)):
                    return True  # "%d" % value
            return self.may_need_concrete(parent, _depth + 1)
        if isinstance(parent, ast.Subscript):
            if parent.value is node:
                return self.may_need_concrete(parent, _depth + 1)
            return True  # an index
        if isinstance(parent, ast.Starred):
            return self.may_need_concrete(parent, _depth + 1)
        if isinstance(parent, ast.Attribute) and parent.value is node:
            if parent.attr in STATIC_ATTRS:
                return False  # same shape and dtype either way
            if parent.attr in CONCRETE_METHODS:
                return True
            call = syntax.parent(parent)
            if isinstance(call, ast.Call) and call.func is parent:
                return self.may_need_concrete(call, _depth + 1)
            return self.may_need_concrete(parent, _depth + 1)
        if isinstance(parent, ast.keyword):
            call = syntax.parent(parent)
            if not isinstance(call, ast.Call) or parent.arg in SHAPE_KEYWORDS:
                return True
            return not self._array_call(call)
        if isinstance(parent, ast.Call):
            if parent.func is node:
                return True
            if not self._array_call(parent):
                return True
            q = self.index.qualname(parent.func)
            if q is None:  # a method of a traced array
                return getattr(parent.func, "attr", "") in SHAPE_METHODS
            short = q.rsplit(".", 1)[-1]
            pos = next((i for i, a in enumerate(parent.args) if a is node), -1)
            return (short in SHAPE_FIRST and pos == 0) or (short in SHAPE_SECOND and pos == 1)
        if isinstance(parent, ast.Return):
            return False
        if isinstance(parent, ast.Expr):
            return False
        if isinstance(parent, (ast.Assign, ast.AnnAssign)) and parent.value is node:
            targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
            if not all(isinstance(t, ast.Name) for t in targets):
                return True
            fn = self.index.enclosing_function(parent)
            if fn is None:
                return True
            names = {t.id for t in targets}  # type: ignore[attr-defined]
            for sub in ast.walk(fn):
                if (
                    isinstance(sub, ast.Name)
                    and sub.id in names
                    and isinstance(sub.ctx, ast.Load)
                    and self.may_need_concrete(sub, _depth + 1)
                ):
                    return True
            return False
        return True

    def _array_call(self, call: ast.Call) -> bool:
        """A call that takes arrays: a jax function, or a method of a traced array."""
        q = self.index.qualname(call.func)
        if q is not None:
            return q.startswith(JAX_ARRAY_MODULES)
        func = call.func
        return isinstance(func, ast.Attribute) and self.level(func.value) >= Level.TREE
