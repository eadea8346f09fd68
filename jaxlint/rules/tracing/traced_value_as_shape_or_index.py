"""JAX120: a traced value used as a shape, a size, a `range` bound or a slice bound.

Shapes must be known when JAX traces, so a traced value there raises a
`ConcretizationTypeError`; the tables say which argument of each `jax.numpy` and `jax.random`
function is a shape.
"""

from __future__ import annotations

import ast

from jaxlint.rules.base import Context, Examples, Rule, Verify

SHAPE_FUNCS = {
    # qualname: positions (ints) and keywords that take a shape or size
    "jax.numpy.zeros": (0, "shape"),
    "jax.numpy.ones": (0, "shape"),
    "jax.numpy.empty": (0, "shape"),
    "jax.numpy.full": (0, "shape"),
    "jax.numpy.eye": (0, 1, "N", "M"),
    "jax.numpy.identity": (0, "n"),
    "jax.numpy.tri": (0, 1, "N", "M"),
    "jax.numpy.arange": (0, 1, 2, "start", "stop", "step"),
    "jax.numpy.linspace": (2, "num"),
    "jax.numpy.logspace": (2, "num"),
    "jax.numpy.tile": (1, "reps"),
    "jax.numpy.reshape": (1, "shape", "newshape"),
    "jax.numpy.broadcast_to": (1, "shape"),
    "jax.numpy.resize": (1, "new_shape"),
    "jax.numpy.zeros_like": ("shape",),
    "jax.numpy.ones_like": ("shape",),
    "jax.numpy.empty_like": ("shape",),
    "jax.numpy.full_like": ("shape",),
    "jax.lax.full": (0, "shape"),
    "jax.lax.iota": (1, "size"),
    "jax.lax.broadcast": (1, "sizes"),
    "jax.lax.broadcast_in_dim": (1, "shape"),
    "jax.lax.reshape": (1, "new_sizes"),
    "jax.lax.dynamic_slice": (2, "slice_sizes"),
    "range": (0, 1, 2),
    # concrete-size APIs: the number or position of pieces, `k`, the repeat counts
    "jax.numpy.split": (1, "indices_or_sections"),
    "jax.numpy.array_split": (1, "indices_or_sections"),
    "jax.numpy.hsplit": (1, "indices_or_sections"),
    "jax.numpy.vsplit": (1, "indices_or_sections"),
    "jax.lax.top_k": (1, "k"),
    "jax.numpy.repeat": (1, "repeats"),  # unless `total_repeat_length` fixes the size
    # without `num_segments` the output length is `max(segment_ids) + 1`, read concretely
    "jax.ops.segment_sum": (1, "segment_ids"),
    "jax.ops.segment_prod": (1, "segment_ids"),
    "jax.ops.segment_max": (1, "segment_ids"),
    "jax.ops.segment_min": (1, "segment_ids"),
}
# ... unless the call gives the output size itself: the positions and keywords that do
SIZE_GIVEN = {
    "jax.numpy.repeat": ((), ("total_repeat_length",)),
    **{f"jax.ops.segment_{op}": ((2,), ("num_segments",)) for op in ("sum", "prod", "max", "min")},
}
RANDOM_SHAPE_POS = {
    "normal": 1,
    "uniform": 1,
    "randint": 1,
    "gumbel": 1,
    "laplace": 1,
    "logistic": 1,
    "exponential": 1,
    "cauchy": 1,
    "rademacher": 1,
    "bits": 1,
    "truncated_normal": 3,
    "bernoulli": 2,
}


class TracedValueAsShapeOrIndex(Rule):
    """Flags traced values used as shapes, sizes, `range` bounds or slice bounds.

    What it does: finds a traced value passed where JAX needs a concrete integer: `range(n)`,
    `jnp.zeros(n)`, `jnp.arange(n)`, `lax.full((n, k), 0)`, `x.reshape(n, -1)`,
    `jax.random.normal(key, (n,))`, slices `x[i:j]`, and the concrete-size arguments
    `jnp.split(x, n)`, `lax.top_k(x, k)`, `jnp.repeat(x, r)` (without
    `total_repeat_length`), `jax.ops.segment_sum(x, ids)` (without `num_segments`: the ids
    give the output length).
    Why is this bad: array shapes must be known at trace time; a traced size raises
    `ConcretizationTypeError` (or `TypeError: Shapes must be 1D sequences of concrete values`,
    `IndexError: Array slice indices must have static start/stop/step`). Sizes computed from
    `x.shape`, `len(x)` and static arguments are fine.
    Example:
        @jax.jit
        def f(x, n):
            return jnp.zeros(n) + x[:n].sum()
    Use instead:
        @functools.partial(jax.jit, static_argnames="n")
        def f(x, n):
            return jnp.zeros(n) + x[:n].sum()
    Or keep `n` dynamic with `lax.fori_loop`, `lax.dynamic_slice` or masking
    (`jnp.where(jnp.arange(x.shape[0]) < n, x, 0)`). No automatic fix.
    """

    code = "JAX120"
    traced_evidence = True
    name = "traced-value-as-shape-or-index"
    message = "{what} needs a concrete value but gets a traced one: {why}; {advice}"
    verifier = "trace"
    verify = Verify(
        kinds=("trace", "retrace-static"),
        expect=(
            "TracerIntegerConversionError",
            "ConcretizationTypeError",
            "Shapes must be 1D sequences of concrete values",
            "Slice entries must be static",  # JAX 0.7-0.10
            "slice indices must have static",  # JAX 0.6 and >= 0.11
            "must have __hash__ and __eq__",
            "TracerBoolConversionError",
        ),
    )
    templates = ("scan",)
    examples = Examples(
        invalid=(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x, n):
                return jnp.zeros(n) + x  # error: JAX120
            """,
            """
            import jax

            @jax.jit
            def f(x, n):
                total = 0.0
                for i in range(n):  # error: JAX120
                    total = total + x[i]
                return total
            """,
            """
            import jax

            @jax.jit
            def f(x, i):
                return x[i:i + 3]  # error: JAX120
            """,
            """
            import jax
            import jax.numpy as jnp

            def window(x, k):
                return x.reshape(k, -1)  # error: JAX120

            @jax.jit
            def f(x, k):
                return window(x, k)
            """,
            """
            import jax

            @jax.jit
            def sample(key, n):
                return jax.random.normal(key, (n, 3))  # error: JAX120
            """,
            """
            import jax
            from jax import lax

            def pad_rows(first_row, pad_to_length):
                width = first_row.shape[0]
                return lax.full((pad_to_length, width), 0, first_row.dtype)  # error: JAX120

            padded = jax.jit(pad_rows)(jax.numpy.ones(2), 4)
            """,
        ),
        valid=(
            """
            import jax
            import jax.numpy as jnp
            from functools import partial

            @partial(jax.jit, static_argnums=(1,))
            def f(x, n):
                return jnp.zeros(n) + x[:n].sum() + jnp.arange(x.size).sum()
            """,
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def f(x, i):
                y = jnp.zeros(x.shape[0]) + x[: len(x) // 2].sum()
                return y + x[i] + x.reshape(x.shape[0] // 2, -1).sum()
            """,
            """
            import jax
            from jax import lax

            @jax.jit
            def f(x, n):
                return lax.fori_loop(0, n, lambda i, acc: acc + x[i], 0.0)
            """,
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not ctx.in_jit:
            return
        q = ctx.qualname(node.func)
        spec: tuple = ()
        if q in SHAPE_FUNCS:
            spec = SHAPE_FUNCS[q]
        elif q and q.startswith("jax.random.") and q.rsplit(".", 1)[1] in RANDOM_SHAPE_POS:
            spec = (RANDOM_SHAPE_POS[q.rsplit(".", 1)[1]], "shape")
        elif (
            isinstance(node.func, ast.Attribute)
            and node.func.attr in ("reshape", "broadcast_to")
            and q is None
        ):
            if ctx.taint.is_traced(node.func.value) or ctx.facts.values.is_array_like(
                node.func.value
            ):
                spec = tuple(range(len(node.args))) + ("shape",)
        if not spec:
            return
        if q in SIZE_GIVEN:
            positions, keywords = SIZE_GIVEN[q]
            if any(len(node.args) > i for i in positions) or any(
                kw.arg in (*keywords, None) for kw in node.keywords
            ):
                return  # the output size is given: traced repeats / segment ids are fine
        for i, a in enumerate(node.args):
            if i in spec and self._bad(a, ctx):
                self._report(node, a, q or ctx.text(node.func), ctx)
                return
        for kw in node.keywords:
            if kw.arg in spec and self._bad(kw.value, ctx):
                self._report(node, kw.value, q or ctx.text(node.func), ctx)
                return

    @staticmethod
    def _bad(arg: ast.AST, ctx: Context) -> bool:
        if isinstance(arg, (ast.Tuple, ast.List)):
            return any(ctx.taint.is_traced(e) for e in arg.elts)
        return ctx.taint.is_traced(arg)

    def _report(self, call: ast.Call, arg: ast.AST, name: str, ctx: Context) -> None:
        short = name.replace("jax.numpy.", "jnp.").replace("jax.random.", "jax.random.")
        static = ctx.static_advice()  # ", or mark the argument static (...)" or nothing
        advice = (
            "use `lax.fori_loop` (bounds may be traced)" + static
            if name == "range"
            else "pad to a fixed size and mask" + static
        )
        self.report(arg, what=f"`{short}`", why=ctx.why_traced(arg), advice=advice)

    def visit_Subscript(self, node: ast.Subscript, ctx: Context) -> None:
        if not ctx.in_jit:
            return
        slices = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        for s in slices:
            if isinstance(s, ast.Slice):
                for part in (s.lower, s.upper, s.step):
                    if part is not None and ctx.taint.is_traced(part):
                        self.report(
                            part,
                            what="a slice bound",
                            why=ctx.why_traced(part),
                            advice="use `lax.dynamic_slice(x, (start,), (size,))` with a static size, or mark it static",
                        )
                        return
