"""JAX121: `jnp.nonzero`/`argwhere`/`unique`/one-argument `jnp.where` without `size=` in traced code.

The output shape of these depends on the data, which JAX cannot know while tracing; the fix adds
`size=` bounded by an array whose `.size` soundly bounds the number of results.
"""

from __future__ import annotations

import ast

from jaxlint.rules.base import Context, Examples, Rule, Verify
from jaxlint.rules.tracing._masks import ELEMENTWISE_PREDICATES, _scalar_literal

# data-dependent output shapes: function -> the positional index of the array argument
DATA_DEPENDENT_SHAPE = {
    "nonzero": 0,
    "argwhere": 0,
    "flatnonzero": 0,
    "unique": 0,
    "unique_values": 0,
    "unique_counts": 0,
    "unique_inverse": 0,
    "unique_all": 0,
    "extract": 0,
    "compress": 0,
    "setdiff1d": 0,
    "union1d": 0,
    "intersect1d": 0,
    "where": 0,
}
INDEX_RESULTS = {"nonzero", "argwhere", "flatnonzero", "where"}
UNIQUE_RESULTS = {"unique", "unique_values", "unique_counts", "unique_inverse", "unique_all"}


def _size_source(ctx: Context, arg: ast.AST) -> str | None:
    """An expression whose `.size` bounds the number of results (None: no sound choice)."""
    if isinstance(arg, (ast.Name, ast.Attribute)):
        return ctx.text(arg)
    if isinstance(arg, ast.Compare) and len(arg.ops) == 1:
        left, right = arg.left, arg.comparators[0]
        for array, other in ((left, right), (right, left)):
            if isinstance(array, (ast.Name, ast.Attribute)) and _scalar_literal(other):
                return ctx.text(array)
    if isinstance(arg, ast.Call) and len(arg.args) == 1 and not arg.keywords:
        q = ctx.qualname(arg.func) or ""
        if q.startswith("jax.numpy.") and q.rsplit(".", 1)[1] in ELEMENTWISE_PREDICATES:
            inner = arg.args[0]
            if isinstance(inner, (ast.Name, ast.Attribute)):
                return ctx.text(inner)
    return None


class DataDependentShapeWithoutSize(Rule):
    """Flags `jnp.nonzero`/`argwhere`/`unique`/one-argument `jnp.where` without `size=` in
    traced code.

    What it does: finds calls whose output shape depends on the data (`jnp.nonzero`,
    `jnp.argwhere`, `jnp.flatnonzero`, `jnp.where(cond)` with one argument, `jnp.unique` and
    the `unique_*` family, `jnp.extract`, `jnp.compress`, `jnp.setdiff1d`/`union1d`/
    `intersect1d`, `x.nonzero()`) on a traced value, without a static `size=`.
    Why is this bad: XLA needs every shape at trace time. With a traced input these raise
    `ConcretizationTypeError` ("The size argument of jnp.nonzero must be statically
    specified"). With `size=N` the result has a fixed length, padded with `fill_value`.
    Example:
        @jax.jit
        def positives(x):
            return jnp.nonzero(x > 0)
    Use instead:
        @jax.jit
        def positives(x):
            return jnp.nonzero(x > 0, size=x.size, fill_value=-1)
    Fix: add `size=<input>.size` (the largest possible count) and, for the index functions,
    `fill_value=-1` (unsafe: the result is now padded and code reading it must ignore the
    padding; `unique` pads with its smallest value). No fix when no sound size is visible.
    """

    code = "JAX121"
    traced_evidence = True
    name = "data-dependent-shape-without-size"
    message = (
        "`{func}` has a data-dependent output shape and raises ConcretizationTypeError under "
        "jit: {why}; pass a static `size=` (and `fill_value=`) so the result has a fixed length"
    )
    fix_safety = "unsafe"
    verifier = "trace"
    verify = Verify(expect=("ConcretizationTypeError", "NonConcreteBooleanIndexError"))
    templates = ("mre",)
    examples = Examples(
        invalid=(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def positives(x):
                return jnp.nonzero(x > 0)  # error: JAX121
            """,
            """
            import jax
            import jax.numpy as np

            def loss_fn(params, labels):
                classes = np.unique(labels)  # error: JAX121
                return params.sum() / classes.shape[0]

            @jax.jit
            def train_step(params, labels):
                return jax.grad(loss_fn)(params, labels)
            """,
            """
            import jax
            import jax.numpy as jnp
            from jax import lax

            def body(carry, row):
                idx = jnp.where(row > carry)  # error: JAX121
                return carry, idx[0].sum()

            def run(xs):
                return lax.scan(body, 0.0, xs)
            """,
            """
            from jax import jit
            import jax.numpy as jnp

            @jit
            def active(mask):
                hits = mask.nonzero()  # error: JAX121
                return jnp.argwhere(mask)  # error: JAX121
            """,
            """
            import jax
            import jax.numpy as np
            from functools import partial

            class Selector:
                def __init__(self, threshold):
                    self.threshold = threshold

                @partial(jax.jit, static_argnums=0)
                def select(self, scores):
                    keep = scores > self.threshold
                    return np.flatnonzero(keep)  # error: JAX121
            """,
        ),
        valid=(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x):
                a = jnp.nonzero(x > 1, size=4, fill_value=-1)
                b = jnp.where(x > 1, x, 0.0)
                c = jnp.unique(x, size=x.size)
                return a, b, c
            """,
            """
            import jax.numpy as jnp
            import numpy as np

            LABELS = np.array([0, 1, 1, 2])

            def eager(x):
                return jnp.nonzero(x)

            def f(x):
                return jnp.unique(LABELS)
            """,
        ),
        unsafe_fixes=(
            (
                """
                import jax
                import jax.numpy as jnp

                @jax.jit
                def f(x, labels):
                    idx = jnp.nonzero(x > 0)
                    return idx, jnp.unique(labels)
                """,
                """
                import jax
                import jax.numpy as jnp

                @jax.jit
                def f(x, labels):
                    idx = jnp.nonzero(x > 0, size=x.size, fill_value=-1)
                    return idx, jnp.unique(labels, size=labels.size)
                """,
            ),
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not ctx.in_jit or any(kw.arg == "size" for kw in node.keywords):
            return
        if any(kw.arg is None for kw in node.keywords) or any(
            isinstance(a, ast.Starred) for a in node.args
        ):
            return
        raw = ctx.qualname(node.func)
        q = raw or ""
        func = None
        if q.startswith("jax.numpy."):
            func = q[len("jax.numpy.") :]
            if func not in DATA_DEPENDENT_SHAPE or not node.args:
                return
            if func == "where" and (len(node.args) != 1 or node.keywords):
                return
            if func == "unique" and any(kw.arg == "axis" for kw in node.keywords):
                return
            arg = node.args[0]
            shown = f"jnp.{func}"
        elif (
            isinstance(node.func, ast.Attribute)
            and node.func.attr == "nonzero"
            and raw is None
            and not node.args
            and ctx.taint.is_traced(node.func.value)
        ):
            func, arg, shown = "nonzero", node.func.value, ".nonzero()"
        else:
            return
        if not ctx.taint.is_traced(arg):
            return
        self.report(node, func=shown, why=ctx.why_traced(arg), fix=self._fix(node, func, arg, ctx))

    def _fix(self, node: ast.Call, func: str, arg: ast.AST, ctx: Context):  # noqa: ANN202
        if func not in INDEX_RESULTS and func not in UNIQUE_RESULTS:
            return None
        if any(kw.arg == "fill_value" for kw in node.keywords):
            return None
        source = _size_source(ctx, arg)
        if source is None:
            return None
        extra = f"size={source}.size"
        if func in INDEX_RESULTS:
            extra += ", fill_value=-1"
        end = ctx.end(node)
        close = type(end)(end.line, end.col - 1)  # before the closing parenthesis
        sep = ", " if (node.args or node.keywords) else ""
        return self.fix(
            ctx.insert(close, f"{sep}{extra}"),
            message=f"Add `{extra}` (the result is padded)",
        )
