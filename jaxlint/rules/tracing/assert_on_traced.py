"""JAX111: `assert` on a traced value.

An `assert` asks for the truth value of its condition, which a tracer does not have; it shares
with JAX110 the search for the traced part of the condition (`_truth.py`).
"""

from __future__ import annotations

import ast

from jaxlint.rules.base import Context, Examples, Rule, Verify
from jaxlint.rules.tracing._truth import truth_culprit


class AssertOnTraced(Rule):
    """Flags `assert` on traced values.

    What it does: finds `assert <condition>` where the condition is a traced array inside a
    jit-like function.
    Why is this bad: `assert` needs a concrete boolean while tracing and raises
    `TracerBoolConversionError`; asserting shapes (`x.shape == (3,)`) is fine.
    Example:
        @jax.jit
        def f(x):
            assert (x >= 0).all()
            return jnp.sqrt(x)
    Use instead:
        from jax.experimental import checkify

        def f(x):
            checkify.check((x >= 0).all(), "x must be non-negative")
            return jnp.sqrt(x)
        f = jax.jit(checkify.checkify(f))
    Or `eqx.error_if`. No automatic fix.
    """

    code = "JAX111"
    traced_evidence = True
    name = "assert-on-traced"
    message = (
        "`assert` on a traced value raises TracerBoolConversionError under {transform}: {why}; "
        "use `checkify.check` (with `checkify.checkify`) or `eqx.error_if`"
    )
    verifier = "trace"
    verify = Verify(expect=("TracerBoolConversionError", "ConcretizationTypeError"))
    templates = ("checkify",)
    examples = Examples(
        invalid=(
            """
            import jax

            @jax.jit
            def f(x):
                assert (x >= 0).all(), "negative"  # error: JAX111
                return x
            """,
            """
            import jax
            from jax import lax

            def body(i, acc):
                assert acc < 100  # error: JAX111
                return acc + i

            def total(n):
                return lax.fori_loop(0, n, body, 0)
            """,
        ),
        valid=(
            """
            import jax

            @jax.jit
            def f(x):
                assert x.shape == (3,), x.shape
                assert x.ndim == 1
                return x
            """,
        ),
    )

    def visit_Assert(self, node: ast.Assert, ctx: Context) -> None:
        if not ctx.in_jit:
            return
        culprit = truth_culprit(node.test, ctx)
        if culprit is not None:
            self.report(node, transform=ctx.transform_name(), why=ctx.why_traced(culprit))
