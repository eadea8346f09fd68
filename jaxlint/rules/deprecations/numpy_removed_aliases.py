"""JAX807 numpy-removed-aliases: `jax.numpy` aliases that no longer exist, renamed to the
spellings that exist (`jnp.NINF` -> `-jnp.inf`, `jnp.product` -> `jnp.prod`, ...).
"""

from __future__ import annotations

import ast

from jaxlint.edits.rename import has_star, rename_keyword
from jaxlint.rules._rename import Move, RenameRule
from jaxlint.rules.base import Context, Examples
from jaxlint.rules.deprecations._calls import call_of


class NumpyRemovedAliases(RenameRule):
    """Flags `jax.numpy` aliases that no longer exist.

    What it does: finds `jnp.NINF`, `NZERO`, `PZERO`, `Inf`, `NaN`, `infty`, `round_`,
    `product`, `cumproduct`, `alltrue`, `sometrue`, `row_stack`, `trapz`, `fix`, `in1d`,
    `msort`, `issubsctype` and `asfarray`, however `jax.numpy` is imported
    (`import jax.numpy as np` included); real NumPy is not touched.
    Why is this bad: each raises `AttributeError` in JAX 0.10.2 (`jnp.fix` since 0.10.0;
    `Inf`/`NaN`/`infty` never existed in `jax.numpy`: they are NumPy<2 spellings).
    Example:
        lo = jnp.NINF
        y = jnp.product(x, axis=0)
    Use instead:
        lo = -jnp.inf
        y = jnp.prod(x, axis=0)
    Fix: rename (safe). `in1d(a, b)` -> `isin(a, b).ravel()` and `msort(a)` ->
    `sort(a, axis=0)` (unsafe: the call is rewritten); `issubsctype` -> `issubdtype` (unsafe:
    it accepted arrays); `asfarray`: none (dtype policy differs).
    """

    code = "JAX807"
    name = "numpy-removed-aliases"
    fix_safety = "safe"
    verifier = "import"
    tier = 1
    RENAMES = {
        "jax.numpy.NINF": Move("jax.numpy.inf", expr="-{new}"),
        "jax.numpy.NZERO": Move("-0.0", expr="-0.0"),
        "jax.numpy.PZERO": Move("0.0", expr="0.0"),
        "jax.numpy.Inf": Move("jax.numpy.inf", note="never part of jax.numpy"),
        "jax.numpy.NaN": Move("jax.numpy.nan", note="never part of jax.numpy"),
        "jax.numpy.infty": Move("jax.numpy.inf", note="never part of jax.numpy"),
        "jax.numpy.round_": Move("jax.numpy.round"),
        "jax.numpy.product": Move("jax.numpy.prod"),
        "jax.numpy.cumproduct": Move("jax.numpy.cumprod"),
        "jax.numpy.alltrue": Move("jax.numpy.all"),
        "jax.numpy.sometrue": Move("jax.numpy.any"),
        "jax.numpy.row_stack": Move("jax.numpy.vstack"),
        "jax.numpy.trapz": Move("jax.numpy.trapezoid"),
        "jax.numpy.fix": Move("jax.numpy.trunc", removed="0.10"),
        "jax.numpy.in1d": Move(
            "jax.numpy.isin", "unsafe", call="_in1d_call", expr="{new}(a, b).ravel()"
        ),
        "jax.numpy.msort": Move(
            "jax.numpy.sort", "unsafe", call="_msort_call", expr="{new}(a, axis=0)"
        ),
        "jax.numpy.issubsctype": Move(
            "jax.numpy.issubdtype", "unsafe", note="it takes dtypes, not arrays"
        ),
        "jax.numpy.asfarray": Move(
            None, None, "use `jnp.asarray(x, dtype=...)` with the float dtype you want"
        ),
    }
    examples = Examples(
        invalid=(
            """
            import jax.numpy as np


            def masked_max(x, m):
                return np.where(m, x, np.NINF).max()  # error: JAX807
            """,
            """
            import jax.numpy as jnp
            from jax.numpy import product  # error: JAX807

            total = product(jnp.arange(1, 4))
            inside = jnp.in1d(jnp.arange(4), jnp.array([1, 2]))  # error: JAX807
            """,
        ),
        valid=(
            """
            import numpy as np
            import jax.numpy as jnp

            lo = np.inf
            a = jnp.prod(jnp.arange(3)) + jnp.trunc(1.5) - jnp.inf
            """,
        ),
        fixes=(
            (
                """
                import jax.numpy as np

                lo = np.NINF ** 2
                y = np.product(np.arange(1, 4)) + np.fix(1.5)
                """,
                """
                import jax.numpy as np

                lo = (-np.inf) ** 2
                y = np.prod(np.arange(1, 4)) + np.trunc(1.5)
                """,
            ),
            (
                """
                from jax.numpy import NINF, alltrue

                lo = NINF
                ok = alltrue([True])
                """,
                """
                from jax.numpy import all as alltrue
                import jax.numpy as jnp

                lo = -jnp.inf
                ok = alltrue([True])
                """,
            ),
        ),
        unsafe_fixes=(
            (
                """
                import jax.numpy as jnp

                inside = jnp.in1d(jnp.arange(4), jnp.array([1, 2]), invert=True)
                col_sorted = jnp.msort(jnp.ones((3, 2)))
                """,
                """
                import jax.numpy as jnp

                inside = jnp.isin(jnp.arange(4), jnp.array([1, 2]), invert=True).ravel()
                col_sorted = jnp.sort(jnp.ones((3, 2)), axis=0)
                """,
            ),
        ),
    )

    def _in1d_call(self, ctx: Context, ref: ast.AST, target: str):  # noqa: ANN202
        call = call_of(ref)
        if call is None or has_star(call):
            return None
        edits = [ctx.replace(ref, target), ctx.insert(ctx.end(call), ".ravel()")]
        for kw in call.keywords:
            if kw.arg in ("ar1", "ar2"):
                edits.append(
                    rename_keyword(ctx, kw, "element" if kw.arg == "ar1" else "test_elements")
                )
        return edits, "unsafe"

    def _msort_call(self, ctx: Context, ref: ast.AST, target: str):  # noqa: ANN202
        call = call_of(ref)
        if call is None or len(call.args) != 1 or call.keywords or has_star(call):
            return None
        return [ctx.replace(ref, target), ctx.insert(ctx.end(call.args[0]), ", axis=0")], "unsafe"
