"""JAX130: boolean-mask indexing with a traced mask (`x[x > 0]`, `x.at[m].set(v)`).

The result of `x[m]` has as many elements as `m` has true entries, unknown while tracing; the
fixes rewrite a masked reduction to `where=` and a masked `.at[m]` update to `jnp.where`.
"""

from __future__ import annotations

import ast

from jaxlint.analysis import syntax
from jaxlint.edits.imports import ensure_module
from jaxlint.rules.base import Context, Examples, Rule, Verify
from jaxlint.rules.tracing._masks import ELEMENTWISE_PREDICATES, _scalar_literal

# reductions that take `where=` and give the same result as reducing the selected elements
WHERE_REDUCTIONS = {"sum", "mean", "prod", "std", "var", "any", "all", "nansum", "nanmean"}
AT_UPDATES = {"set": "{v}", "add": "{x} + {v}", "multiply": "{x} * {v}", "mul": "{x} * {v}"}


class BooleanMaskIndexingInTraced(Rule):
    """Flags boolean-mask indexing with a traced mask (`x[x > 0]`, `x.at[m].set(v)`).

    What it does: finds subscripts of a traced array whose index is a traced boolean mask: a
    comparison, `jnp.isnan(...)`/`jnp.logical_*(...)`, `&`/`|`/`~` of masks, or a variable
    holding one; also inside `x.at[...]` and index tuples (`x[:, m]`).
    Why is this bad: the result's length is the number of `True` entries, which is data, so
    under jit (and bare vmap) JAX raises `NonConcreteBooleanIndexError: Array boolean indices
    must be concrete`. A constant NumPy mask is fine.
    Example:
        @jax.jit
        def f(x):
            pos_mean = x[x > 0].mean()
            x = x.at[x < 0].set(0.0)
            return pos_mean, x
    Use instead:
        @jax.jit
        def f(x):
            pos_mean = jnp.mean(x, where=x > 0)
            x = jnp.where(x < 0, 0.0, x)
            return pos_mean, x
    Fix (safe): `jnp.sum/mean/prod/std/var/any/all(x[m])` and `x[m].sum()` ... ->
    `jnp.sum(x, where=m)` when the mask is computed elementwise from `x` (same shape);
    `x.at[m].set(c)` / `.add(c)` / `.multiply(c)` with a constant `c` -> `jnp.where(m, ..., x)`.
    No fix for a bare `x[m]`: use `jnp.where(m, x, fill)` or
    `x[jnp.nonzero(m, size=K, fill_value=...)]` (padded), which change the result's shape.
    """

    code = "JAX130"
    traced_evidence = True
    name = "boolean-mask-indexing-in-traced"
    message = (
        "boolean-mask indexing has a data-dependent shape and raises "
        "NonConcreteBooleanIndexError under jit: {why}; {advice}"
    )
    fix_safety = "safe"
    verifier = "trace"
    verify = Verify(
        kinds=("trace", "numeric"),
        expect=(
            "NonConcreteBooleanIndexError",
            "TracerBoolConversionError",
            "ConcretizationTypeError",
        ),
    )
    templates = ("mre",)
    examples = Examples(
        invalid=(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x):
                pos_mean = jnp.mean(x[x > 0])  # error: JAX130
                return pos_mean
            """,
            """
            import jax
            import jax.numpy as jnp

            def masked_loss(pred, target):
                valid = ~jnp.isnan(target)
                err = (pred - target) ** 2
                return err[valid].mean()  # error: JAX130

            @jax.jit
            def train_step(params, x, target):
                return jax.grad(lambda p: masked_loss(x @ p, target))(params)
            """,
            """
            from jax import jit
            import jax.numpy as jnp

            @jit
            def clip_negative(x):
                return x.at[x < 0].set(0.0)  # error: JAX130
            """,
            """
            import jax
            import jax.numpy as jnp

            @jax.vmap
            def select(row, threshold):
                keep = (row > threshold) & (row < 10.0)
                return row[keep]  # error: JAX130
            """,
            """
            import jax
            import jax.numpy as jnp

            jit = jax.jit

            def finite(y):
                return jnp.isfinite(y) & (y != 0)

            @jit
            def mean_valid(y):
                ok = finite(y)
                return y[ok].mean()  # error: JAX130
            """,
            """
            import jax
            import flax.linen as nn

            class Head(nn.Module):
                @nn.compact
                def __call__(self, x, labels: jax.Array):
                    logits = nn.Dense(10)(x)
                    return logits[labels >= 0, :].sum()  # error: JAX130
            """,
        ),
        valid=(
            """
            import jax
            import jax.numpy as jnp
            import numpy as np

            MASK = np.array([True, False, True, False])

            @jax.jit
            def f(x, i):
                a = x[MASK]
                b = jnp.where(x > 0, x, 0.0)
                c = jnp.mean(x, where=x > 0)
                d = x[i] + x[jnp.argmax(x)]
                return a, b, c, d
            """,
            """
            import jax.numpy as jnp

            def eager(x):
                return x[x > 0].sum()

            def grad_only(x):
                return x[x > 0].sum()
            """,
        ),
        fixes=(
            (
                """
                import jax
                import jax.numpy as jnp

                @jax.jit
                def f(x):
                    a = jnp.sum(x[x > 0])
                    b = x[jnp.isfinite(x)].mean()
                    return a, b, x.at[x < 0].set(0.0)
                """,
                """
                import jax
                import jax.numpy as jnp

                @jax.jit
                def f(x):
                    a = jnp.sum(x, where=x > 0)
                    b = jnp.mean(x, where=jnp.isfinite(x))
                    return a, b, jnp.where(x < 0, 0.0, x)
                """,
            ),
        ),
    )

    def visit_Subscript(self, node: ast.Subscript, ctx: Context) -> None:
        if not ctx.in_jit or not isinstance(node.ctx, ast.Load):
            return
        base = node.value
        is_at = isinstance(base, ast.Attribute) and base.attr == "at"
        array = base.value if is_at else base  # type: ignore[union-attr]
        if not ctx.taint.is_traced(array):
            return
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        mask = next((p for p in parts if ctx.taint.is_bool_mask(p)), None)
        if mask is None:
            return
        fix, advice = (
            None,
            (
                "use `jnp.where(mask, x, fill)` (same shape) or "
                "`x[jnp.nonzero(mask, size=K, fill_value=...)]` (padded to a static size)"
            ),
        )
        simple = len(parts) == 1 and isinstance(array, (ast.Name, ast.Attribute))
        if is_at:
            advice = "use `jnp.where(mask, new_values, x)`"
            if simple:
                fix = self._at_fix(node, array, mask, ctx)
        else:
            reduction = self._reduction(node, ctx)
            if reduction is not None:
                advice = f"use `jnp.{reduction[1]}(x, where=mask)`"
                if simple and self._elementwise_over(mask, ctx.text(array), ctx):
                    fix = self._reduction_fix(node, array, mask, reduction, ctx)
        self.report(node, why=ctx.why_traced(mask), advice=advice, fix=fix)

    @staticmethod
    def _reduction(node: ast.Subscript, ctx: Context) -> tuple[ast.Call, str, bool] | None:
        """(call, name, method form) when `node` is reduced by a `where=`-capable reduction."""
        parent = syntax.parent(node)
        if (
            isinstance(parent, ast.Call)
            and parent.args == [node]
            and not parent.keywords
            and (ctx.qualname(parent.func) or "").startswith("jax.numpy.")
        ):
            name = (ctx.qualname(parent.func) or "").rsplit(".", 1)[1]
            if name in WHERE_REDUCTIONS:
                return parent, name, False
        if (
            isinstance(parent, ast.Attribute)
            and parent.value is node
            and parent.attr in WHERE_REDUCTIONS
        ):
            call = syntax.parent(parent)
            if isinstance(call, ast.Call) and call.func is parent and not call.args:
                if not call.keywords:
                    return call, parent.attr, True
        return None

    def _elementwise_over(self, mask: ast.AST, base: str, ctx: Context, depth: int = 0) -> bool:
        """The mask has the shape of `base`: built elementwise from it and scalars only."""
        if depth > 6:
            return False
        if isinstance(mask, ast.Compare):
            operands = [mask.left, *mask.comparators]
            return any(ctx.text(o) == base for o in operands) and all(
                ctx.text(o) == base or _scalar_literal(o) for o in operands
            )
        if isinstance(mask, ast.Call):
            q = ctx.qualname(mask.func) or ""
            return (
                q.startswith("jax.numpy.")
                and q.rsplit(".", 1)[1] in ELEMENTWISE_PREDICATES | {"isneginf", "isposinf"}
                and len(mask.args) == 1
                and not mask.keywords
                and ctx.text(mask.args[0]) == base
            )
        if isinstance(mask, ast.BinOp) and isinstance(mask.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
            return self._elementwise_over(mask.left, base, ctx, depth + 1) and (
                self._elementwise_over(mask.right, base, ctx, depth + 1)
            )
        if isinstance(mask, ast.UnaryOp) and isinstance(mask.op, ast.Invert):
            return self._elementwise_over(mask.operand, base, ctx, depth + 1)
        return False

    def _reduction_fix(self, node, array, mask, reduction, ctx: Context):  # noqa: ANN001, ANN202
        call, name, method = reduction
        if method:
            try:
                jnp, edits = ensure_module(ctx, "jax.numpy")
            except LookupError:
                return None
            text = f"{jnp}.{name}({ctx.text(array)}, where={ctx.text(mask)})"
            return self.fix(
                ctx.replace(call, text), *edits, message=f"Use `jnp.{name}(x, where=m)`"
            )
        text = f"{ctx.text(array)}, where={ctx.text(mask)}"
        return self.fix(ctx.replace(node, text), message=f"Use `jnp.{name}(x, where=m)`")

    def _at_fix(self, node, array, mask, ctx: Context):  # noqa: ANN001, ANN202
        method = syntax.parent(node)
        call = syntax.parent(method)
        if not (
            isinstance(method, ast.Attribute)
            and method.value is node
            and method.attr in AT_UPDATES
            and isinstance(call, ast.Call)
            and call.func is method
            and len(call.args) == 1
            and not call.keywords
            and (_scalar_literal(call.args[0]) or self._float_constant(call.args[0], ctx))
        ):
            return None
        try:
            jnp, edits = ensure_module(ctx, "jax.numpy")
        except LookupError:
            return None
        x = ctx.text(array)
        new = AT_UPDATES[method.attr].format(x=x, v=ctx.text(call.args[0]))
        text = f"{jnp}.where({ctx.text(mask)}, {new}, {x})"
        return self.fix(ctx.replace(call, text), *edits, message="Use `jnp.where`")

    @staticmethod
    def _float_constant(node: ast.AST, ctx: Context) -> bool:
        if isinstance(node, ast.UnaryOp):
            node = node.operand
        return ctx.qualname(node) in ("jax.numpy.inf", "jax.numpy.nan", "numpy.inf", "numpy.nan")
