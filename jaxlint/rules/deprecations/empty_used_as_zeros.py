"""JAX812 empty-used-as-zeros: `jnp.empty` / `jnp.empty_like` arrays used as if they held
zeros: up to JAX 0.10 they were, from 0.11 the memory is uninitialized.
"""

from __future__ import annotations

import ast

from jaxlint.analysis import syntax
from jaxlint.edits.imports import spell
from jaxlint.rules.base import Context, Examples, Rule

_EMPTY = {"jax.numpy.empty": "jax.numpy.zeros", "jax.numpy.empty_like": "jax.numpy.zeros_like"}
_ACCUMULATING_AT = frozenset({"add", "multiply", "mul", "divide", "power", "min", "max"})
# loop primitives and the position / keyword of their initial carry
_CARRY_INIT = {
    "jax.lax.fori_loop": (3, "init_val"),
    "jax.lax.while_loop": (2, "init_val"),
    "jax.lax.scan": (1, "init"),
}


_EMPTY_CALLEES = frozenset(_EMPTY)


class EmptyUsedAsZeros(Rule):
    """Flags `jnp.empty` / `jnp.empty_like` arrays that are used as if they held zeros.

    What it does: finds an array made by `jnp.empty(...)` / `jnp.empty_like(...)` that is then
    accumulated into: `x += ...`, `x = x + ...`, `x.at[i].add(...)` (or `multiply`, `min`,
    `max`, ...), or passed as the initial carry of `lax.fori_loop` / `lax.scan` /
    `lax.while_loop`. Only when the target JAX is 0.11 or newer.
    Why is this bad: up to JAX 0.10 `jnp.empty` returned zeros (its jaxpr was
    `broadcast_in_dim 0.0`); from 0.11.0 it lowers to an `empty` primitive and the memory is
    uninitialized, like NumPy's. An accumulator started from it silently starts from garbage
    (CPU often happens to give zeros, accelerators do not).
    Example:
        total = jnp.empty(3)
        for x in xs:
            total += x
    Use instead:
        total = jnp.zeros(3)
    Fix: `jnp.empty` -> `jnp.zeros`, `jnp.empty_like` -> `jnp.zeros_like` (safe: same
    arguments, and exactly what every JAX before 0.11 computed).
    """

    code = "JAX812"
    name = "empty-used-as-zeros"
    message = "`{old}` returns uninitialized memory from JAX 0.11 (zeros before); `{name}` {use}, so it starts from garbage: use `{new}`"
    fix_safety = "safe"
    verifier = None  # CPU happens to hand out zeroed memory: nothing to observe at run time
    tier = 3
    silent_in_compat_code = True
    examples = Examples(
        invalid=(
            """
            import jax.numpy as jnp


            def total(xs):
                acc = jnp.empty(3)  # error: JAX812
                for x in xs:
                    acc += x
                return acc
            """,
            """
            import jax
            import jax.numpy as jnp

            counts = jnp.empty_like(jnp.ones(4), dtype=jnp.int32)  # error: JAX812
            counts = counts.at[jnp.array([0, 2])].add(1)
            s = jax.lax.fori_loop(0, 3, lambda i, c: c + i, jnp.empty(()))  # error: JAX812
            """,
        ),
        valid=(
            """
            import jax.numpy as jnp
            import numpy as np

            buf = jnp.empty(3)
            buf = buf.at[0].set(1.0).at[1:].set(2.0)
            host = np.empty(3)
            host += 1
            acc = jnp.zeros(3)
            acc += 1
            """,
        ),
        fixes=(
            (
                """
                import jax.numpy as jnp


                def total(xs):
                    acc = jnp.empty(3, dtype=jnp.float32)
                    for x in xs:
                        acc = acc + x
                    return acc
                """,
                """
                import jax.numpy as jnp


                def total(xs):
                    acc = jnp.zeros(3, dtype=jnp.float32)
                    for x in xs:
                        acc = acc + x
                    return acc
                """,
            ),
        ),
    )

    def callee_filter(self) -> frozenset[str]:
        return _EMPTY_CALLEES  # `visit_Call` returns at once for any other callee

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        old = ctx.qualname(node.func)
        if old not in _EMPTY or not ctx.target.reaches("0.11"):
            return
        use = self._carry_use(node, ctx)
        shown = "this array"
        if use is None:
            parent = syntax.parent(node)
            if not (
                isinstance(parent, ast.Assign)
                and len(parent.targets) == 1
                and isinstance(parent.targets[0], ast.Name)
            ):
                return
            shown = f"`{parent.targets[0].id}`"
            use = self._accumulated(parent.targets[0].id, parent, ctx)
            if use is None:
                return
        fix = None
        try:
            text, edits = spell(ctx, _EMPTY[old])
            fix = self.fix(ctx.replace(node.func, text), *edits, message=f"Use `{text}`")
        except LookupError:
            fix = None
        short = old.replace("jax.numpy.", "jnp.")
        new = _EMPTY[old].replace("jax.numpy.", "jnp.")
        self.report(node, fix=fix, old=short, name=shown, use=use, new=new)

    def _carry_use(self, node: ast.AST, ctx: Context) -> str | None:
        parent = syntax.parent(node)
        if isinstance(parent, ast.keyword):
            call, kw = syntax.parent(parent), parent.arg
        else:
            call, kw = parent, None
        if not isinstance(call, ast.Call):
            return None
        q = ctx.qualname(call.func)
        if q not in _CARRY_INIT:
            return None
        pos, name = _CARRY_INIT[q]
        hit = kw == name if kw else len(call.args) > pos and call.args[pos] is node
        return f"is the initial carry of `{q.replace('jax.lax.', 'lax.')}`" if hit else None

    def _accumulated(self, name: str, assign: ast.Assign, ctx: Context) -> str | None:
        """How `name` (bound by `assign`) is accumulated into in the same function, if it is."""
        scope_node = ctx.index.enclosing_function(assign) or ctx.index.tree
        for n in ast.walk(scope_node):
            if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
                if n.target.id == name and not isinstance(n.op, (ast.BitOr, ast.BitAnd)):
                    return f"is accumulated into (`{name} {_OPS.get(type(n.op), 'op')}= ...`)"
            elif isinstance(n, ast.Assign) and n is not assign and len(n.targets) == 1:
                t = n.targets[0]
                if (
                    isinstance(t, ast.Name)
                    and t.id == name
                    and isinstance(n.value, ast.BinOp)
                    and any(
                        isinstance(side, ast.Name) and side.id == name
                        for side in (n.value.left, n.value.right)
                    )
                ):
                    return f"is accumulated into (`{name} = {name} ... `)"
            elif (
                isinstance(n, ast.Call)
                and isinstance(n.func, ast.Attribute)
                and n.func.attr in _ACCUMULATING_AT
                and isinstance(n.func.value, ast.Subscript)
                and isinstance(n.func.value.value, ast.Attribute)
                and n.func.value.value.attr == "at"
                and isinstance(n.func.value.value.value, ast.Name)
                and n.func.value.value.value.id == name
            ):
                return f"is accumulated into (`{name}.at[...].{n.func.attr}(...)`)"
            elif isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load):
                if self._carry_use(n, ctx):
                    return self._carry_use(n, ctx)
        return None


_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.MatMult: "@", ast.Pow: "**"}
