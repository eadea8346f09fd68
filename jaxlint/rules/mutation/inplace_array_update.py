"""JAX501: item assignment on a JAX array (`x[i] = v`, `x[i] += v`).

JAX arrays are immutable, so this raises a `TypeError`; the fix rewrites it to the functional
`x = x.at[i].set(v)` form (the `AT_METHODS` table maps each augmented operator to its method).
"""

from __future__ import annotations

import ast

from jaxlint.analysis.aliasing import lost_parameter_update, may_be_shared
from jaxlint.analysis.expected_errors import expects_error
from jaxlint.rules.base import Context, Examples, Rule, Verify

AT_METHODS = {
    ast.Add: "add",
    ast.Sub: "subtract",
    ast.Mult: "multiply",
    ast.Div: "divide",
    ast.Pow: "power",
}


def jax_array_name(ctx: Context, name: ast.Name) -> bool:
    """`name` holds a JAX array here, by the shared value-kind evidence (`jnp.*` results,
    `.at[...]` updates, arithmetic on traced values; never a dict that `lax.pmean` or a
    `grad(has_aux=True)` aux returned)."""
    return ctx.facts.values.is_array(name)


def _static_index(node: ast.AST) -> bool:
    """Integer constants, slices, Ellipsis/None and tuples of them: no duplicate positions."""
    if isinstance(node, ast.Tuple):
        return all(_static_index(e) for e in node.elts)
    if isinstance(node, ast.Slice):
        return True
    if isinstance(node, ast.Constant):
        return node.value is Ellipsis or node.value is None or isinstance(node.value, int)
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
        return True
    return False


class InplaceArrayUpdate(Rule):
    """Flags item assignment on a JAX array.

    What it does: finds `x[i] = v` and `x[i] += v` where `x` is a JAX array (bound from
    `jnp.*`, `jax.random.*`, `jax.lax.*`, `.at[...]`, a traced array, or a parameter of a
    plain function that every call in the module passes such an array).
    Why is this bad: JAX arrays are immutable. The assignment raises `TypeError: JAX arrays are
    immutable and do not support in-place item assignment`, eagerly and under jit.
    Example:
        x = jnp.zeros(3)
        x[0] = 1.0
    Use instead:
        x = jnp.zeros(3)
        x = x.at[0].set(1.0)
    Fix: `x[i] = v` -> `x = x.at[i].set(v)` (safe); `x[i] += v` -> `x = x.at[i].add(v)` (safe for
    integer and slice indices; unsafe for an index array, where repeated indices accumulate
    in JAX but not in NumPy). Unsafe too on an untraced parameter known an array only from
    this module's calls (a caller elsewhere may pass a NumPy array to mutate), and where
    another reference may see the update the code meant (`b = a; b[3] = v`, a view
    `row = grid[0]`, an array put in a list or attribute first, a parameter the function does
    not read again): rebinding the name changes only the name. No fix for a parameter the
    function never reads after the update (the caller's array was meant: the rebinding would
    be a dead store).
    """

    code = "JAX501"
    name = "inplace-array-update"
    message = "JAX arrays are immutable: `{target}` raises TypeError; {advice}"
    fix_safety = "safe"
    verifier = "trace"
    verify = Verify(
        kinds=("trace", "numeric"), expect=("immutable", "does not support item assignment")
    )
    templates = ("scan",)
    examples = Examples(
        invalid=(
            """
            import jax.numpy as jnp

            x = jnp.zeros(3)
            x[0] = 1.0  # error: JAX501
            """,
            """
            import jax.numpy as jnp

            def set_last(array):
                array[4] = 10  # error: JAX501
                return array

            print(set_last(jnp.arange(5)))
            """,
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def step(grid, i):
                grid = grid * 2
                grid[i, 0] += 1.0  # error: JAX501
                return grid
            """,
            """
            import jax.numpy as np

            def build(n):
                out = np.ones((n, n))
                out[:, 0] = 0.0  # error: JAX501
                return out
            """,
        ),
        valid=(
            """
            import numpy as np

            x = np.zeros(3)
            x[0] = 1.0
            """,
            """
            import jax.numpy as jnp

            x = jnp.zeros(3)
            x = x.at[0].set(1.0)
            d = {}
            d["a"] = x
            """,
            """
            import jax

            @jax.jit
            def f(params, x):
                params["w"] = params["w"] * 2
                return params
            """,
        ),
        fixes=(
            (
                """
                import jax.numpy as jnp

                x = jnp.zeros(3)
                x[0] = 1.0  # keep me
                """,
                """
                import jax.numpy as jnp

                x = jnp.zeros(3)
                x = x.at[0].set(1.0)  # keep me
                """,
            ),
            (
                """
                import jax.numpy as jnp

                def f():
                    y = jnp.ones((2, 2))
                    y[0, :] += 2
                    y[1] *= 3
                    return y
                """,
                """
                import jax.numpy as jnp

                def f():
                    y = jnp.ones((2, 2))
                    y = y.at[0, :].add(2)
                    y = y.at[1].multiply(3)
                    return y
                """,
            ),
        ),
        unsafe_fixes=(
            (
                """
                import jax.numpy as jnp

                def f(idx):
                    y = jnp.zeros(4)
                    y[idx] += 1
                    return y
                """,
                """
                import jax.numpy as jnp

                def f(idx):
                    y = jnp.zeros(4)
                    y = y.at[idx].add(1)
                    return y
                """,
            ),
        ),
    )

    def visit_Assign(self, node: ast.Assign, ctx: Context) -> None:
        if len(node.targets) != 1:
            return
        self._check(node, node.targets[0], node.value, None, ctx)

    def visit_AugAssign(self, node: ast.AugAssign, ctx: Context) -> None:
        self._check(node, node.target, node.value, node.op, ctx)

    def _check(self, stmt, target, value, op, ctx: Context) -> None:  # noqa: ANN001
        if not isinstance(target, ast.Subscript) or not isinstance(target.value, ast.Name):
            return
        base = target.value
        if not jax_array_name(ctx, base):
            return
        if ctx.facts.transforms.rewrites_item_assignment(stmt):
            return  # `@qjit(autograph=True)`: AutoGraph makes it `.at[...].set(...)`
        if expects_error(ctx.index, stmt, "TypeError"):
            return  # `with pytest.raises(TypeError): x[0] = 1.0`: the error is the point
        method = "set" if op is None else AT_METHODS.get(type(op))
        fix = None
        name, at = base.id, f"{base.id}.at[...].{method or 'set'}(...)"
        # meant for the caller's array, which cannot change: a rebinding nothing reads would
        # drop it (no fix); the function has to hand the new array back
        lost = lost_parameter_update(ctx.index, base, stmt)
        advice = (
            f"the caller's array cannot change: return `{at}` and use the result"
            if lost
            else f"use `{name} = {at}`"
        )
        if method is not None:
            safety = "safe"
            if op is not None and not _static_index(target.slice):
                safety = "unsafe"
            found = ctx.index.lookup(base.id, ctx.index.scope_of(base)) or []
            if any(b.kind == "param" for b in found) and not ctx.taint.is_traced(base):
                # the kind comes from this module's calls; a caller elsewhere may pass a
                # NumPy array that the assignment is meant to mutate in place
                safety = "unsafe"
            if may_be_shared(ctx.index, base, stmt):
                # another reference sees the update the author meant (`b = a; b[3] = ...`,
                # the caller's array): rebinding the name changes only the name
                safety = "unsafe"
            idx = ctx.text(target.slice)
            val = ctx.text(value)
            text = f"{base.id} = {base.id}.at[{idx}].{method}({val})"
            fix = self.fix(ctx.replace(stmt, text), safety=safety, message=f"Use `.at[].{method}`")
            if lost:
                fix = None
        self.report(
            stmt,
            target=ctx.text(target) + (" = ..." if op is None else " op= ..."),
            advice=advice,
            fix=fix,
            span=ctx.span(target) if False else None,
        )
