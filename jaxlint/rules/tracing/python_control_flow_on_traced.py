"""JAX110: Python `if`/`while`/`and`/`or`/`not`/ternaries and `min`/`max`/`any`/... on traced values.

Python control flow needs a concrete boolean while JAX traces, so it raises a
`TracerBoolConversionError`; the rule names the traced part of the condition and, where the
builtin has a `jax.numpy` twin, offers it as the fix.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.syntax import ancestors
from jaxlint.edits.imports import ensure_module
from jaxlint.rules.base import Context, Examples, Rule, Verify
from jaxlint.rules.tracing._truth import truth_culprit


class PythonControlFlowOnTraced(Rule):
    """Flags Python `if`/`while`/`and`/`or`/`not`/ternaries on traced values.

    What it does: finds Python control flow whose condition is a traced array inside a
    jit-like function (jit, vmap, scan/fori_loop/while_loop bodies, cond branches,
    shard_map, ...), and builtin `min`/`max`/`sorted`/`any`/`all` on traced values.
    Why is this bad: the condition needs a concrete boolean while tracing, so JAX raises
    `TracerBoolConversionError` (or `ConcretizationTypeError`). Under bare `jax.grad` this
    works, so grad-only functions are not reported; shape/dtype checks (`x.shape[0] > 1`),
    `is None` and static arguments are fine.
    Example:
        @jax.jit
        def relu(x):
            if x > 0:
                return x
            return 0.0
    Use instead:
        @jax.jit
        def relu(x):
            return jnp.where(x > 0, x, 0.0)
    Or `lax.cond`/`lax.while_loop`, or `static_argnames` when the value is a configuration.
    Fix: value-position `a and b`/`a or b`/`not a` over comparisons -> `jnp.logical_and/or/not`
    (safe); conditions of `if`/`while` need a human.
    """

    code = "JAX110"
    traced_evidence = True
    name = "python-control-flow-on-traced"
    message = (
        "Python {construct} on a traced value raises TracerBoolConversionError under {transform}: "
        "{why}; use {advice}{static}"
    )
    fix_safety = "safe"
    verifier = "trace"
    verify = Verify(
        kinds=("trace", "retrace-static"),
        expect=(
            "TracerBoolConversionError",
            "ConcretizationTypeError",
            "TracerIntegerConversionError",
        ),
    )
    templates = ("scan", "checkify")
    examples = Examples(
        invalid=(
            """
            import jax

            @jax.jit
            def f(x):
                if x > 0:  # error: JAX110
                    return x
                return -x
            """,
            """
            from jax import jit as J

            @J
            def f(x, n):
                while n > 0:  # error: JAX110
                    x = x * 2
                    n = n - 1
                return x
            """,
            """
            import jax
            import jax.numpy as jnp
            from functools import partial

            @partial(jax.jit, static_argnums=(0,))
            def f(mode, x):
                y = jnp.tanh(x)
                return y if y.sum() > 1 else -y  # error: JAX110
            """,
            """
            import jax

            jit = jax.jit

            def loss_fn(params, batch):
                err = (batch - params) ** 2
                if err.mean() > 10.0:  # error: JAX110
                    err = err / 10.0
                return err.mean()

            @jit
            def train_step(params, batch):
                return jax.grad(loss_fn)(params, batch)
            """,
            """
            import jax

            def clip(v):
                return max(v, 0.0)  # error: JAX110

            @jax.vmap
            def apply(x):
                return clip(x * 2)
            """,
            """
            import jax

            @jax.jit
            def f(x, y):
                both = x > 0 and y > 0  # error: JAX110
                return both
            """,
            """
            import jax

            @jax.jit(static_argnames="k")
            def f(x, k):
                if k:
                    pass
                if x.sum() != 0:  # error: JAX110
                    return x
                return x + 1
            """,
        ),
        valid=(
            """
            import jax

            @jax.jit
            def f(x, mask=None):
                if x.shape[0] > 1 and x.ndim == 1 and len(x) == 4 and x.dtype == 'float32':
                    x = x * 2
                if mask is not None:
                    x = x * mask
                if isinstance(x, jax.Array):
                    pass
                return x
            """,
            """
            import jax
            from functools import partial

            @partial(jax.jit, static_argnames=("training",))
            def f(x, training):
                if training:
                    return x * 0.5
                return x
            """,
            """
            import jax

            def f(v):
                if v > 0:
                    return v
                return -v

            g = jax.grad(f)
            """,
            """
            import jax

            f = jax.vmap(lambda v, n: v * 2 if n > 2 else v, in_axes=(0, None))
            """,
            """
            import jax

            @jax.jit
            def f(params, x):
                if "bias" in params:
                    x = x + params["bias"]
                if params:
                    pass
                if jax.process_index() == 0:
                    pass
                for k, v in params.items():
                    if k == "w":
                        x = x @ v
                return x
            """,
            """
            import jax
            import equinox as eqx

            @eqx.filter_jit
            def f(x, n: int = 3):
                if n > 2:
                    return x * 2
                return x
            """,
        ),
        fixes=(
            (
                """
                import jax
                import jax.numpy as jnp

                @jax.jit
                def f(x, y):
                    return x > 0 and y < 1
                """,
                """
                import jax
                import jax.numpy as jnp

                @jax.jit
                def f(x, y):
                    return jnp.logical_and(x > 0, y < 1)
                """,
            ),
        ),
    )

    def _flag(self, test: ast.AST, ctx: Context, construct: str, advice: str) -> None:
        culprit = truth_culprit(test, ctx)
        if culprit is not None:
            self._say(test, ctx, construct, culprit, advice)

    def _say(self, node, ctx, construct, culprit, advice, fix=None) -> None:  # noqa: ANN001
        """Report `construct` on the traced `culprit`, with the transform's own way out."""
        self.report(
            node,
            construct=construct,
            transform=ctx.transform_name(),
            static=ctx.static_advice(),
            why=ctx.why_traced(culprit),
            advice=advice,
            fix=fix,
        )

    def visit_If(self, node: ast.If, ctx: Context) -> None:
        if ctx.in_jit:
            self._flag(node.test, ctx, "`if`", "`jnp.where` or `lax.cond`")

    def visit_While(self, node: ast.While, ctx: Context) -> None:
        if ctx.in_jit:
            self._flag(node.test, ctx, "`while`", "`lax.while_loop` or `lax.fori_loop`")

    def visit_IfExp(self, node: ast.IfExp, ctx: Context) -> None:
        if ctx.in_jit:
            self._flag(node.test, ctx, "conditional expression", "`jnp.where(cond, a, b)`")

    def visit_comprehension(self, node: ast.comprehension, ctx: Context) -> None:
        if ctx.in_jit:
            for cond in node.ifs:
                self._flag(cond, ctx, "comprehension `if`", "`jnp.where` or a mask")

    def visit_BoolOp(self, node: ast.BoolOp, ctx: Context) -> None:
        if not ctx.in_jit or self._in_test(node, ctx):
            return
        # every operand but the last has its truth value taken
        for v in node.values[:-1]:
            culprit = truth_culprit(v, ctx)
            if culprit is not None:
                op = "and" if isinstance(node.op, ast.And) else "or"
                fix = None
                if all(isinstance(x, ast.Compare) for x in node.values):
                    fix = self._logical_fix(node, ctx, f"logical_{op}", node.values)
                self._say(node, ctx, f"`{op}`", culprit, f"`jnp.logical_{op}` or `&`/`|`", fix=fix)
                return

    def visit_UnaryOp(self, node: ast.UnaryOp, ctx: Context) -> None:
        if not ctx.in_jit or not isinstance(node.op, ast.Not) or self._in_test(node, ctx):
            return
        culprit = truth_culprit(node.operand, ctx)
        if culprit is None:
            return
        fix = None
        if isinstance(node.operand, ast.Compare):
            fix = self._logical_fix(node, ctx, "logical_not", [node.operand])
        self._say(node, ctx, "`not`", culprit, "`jnp.logical_not` or `~`", fix=fix)

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not ctx.in_jit:
            return
        q = ctx.qualname(node.func)
        if q in ("min", "max") and len(node.args) >= 2 and not node.keywords:
            for a in node.args:
                if ctx.taint.is_traced(a):
                    self._say(node, ctx, f"`{q}()`", a, f"`jnp.{q}imum`")
                    return
        elif q in ("min", "max", "any", "all", "sorted") and len(node.args) == 1:
            if ctx.taint.is_array(node.args[0]):
                alt = {
                    "min": "jnp.min",
                    "max": "jnp.max",
                    "any": "jnp.any",
                    "all": "jnp.all",
                    "sorted": "jnp.sort",
                }[q]
                self._say(node, ctx, f"`{q}()`", node.args[0], f"`{alt}`")

    @staticmethod
    def _in_test(node: ast.AST, ctx: Context) -> bool:
        """Part of an if/while/assert/ternary test: reported there, once."""
        child = node
        for anc in ancestors(node):
            if isinstance(anc, (ast.If, ast.While, ast.IfExp)) and anc.test is child:
                return True
            if isinstance(anc, ast.Assert) and anc.test is child:
                return True
            if isinstance(anc, ast.comprehension) and child in anc.ifs:
                return True
            if not isinstance(anc, (ast.BoolOp, ast.UnaryOp)):
                return False
            child = anc
        return False

    def _logical_fix(self, node: ast.AST, ctx: Context, func: str, operands):  # noqa: ANN001, ANN202
        try:
            jnp, edits = ensure_module(ctx, "jax.numpy")
        except LookupError:
            return None
        # safe only on proven arrays (analysis/kinds.py): on a Python bool the rewrite turns
        # `last = axis == -1 or ...` into an array and breaks the next `if not last:`
        safety = "safe" if all(ctx.taint.is_array(o) for o in operands) else "unsafe"
        inner = ", ".join(ctx.text(o) for o in operands)
        if func != "logical_not" and len(operands) > 2:
            text = ctx.text(operands[0])
            for o in operands[1:]:
                text = f"{jnp}.{func}({text}, {ctx.text(o)})"
            return self.fix(ctx.replace(node, text), *edits, safety=safety)
        return self.fix(
            ctx.replace(node, f"{jnp}.{func}({inner})"),
            *edits,
            safety=safety,
            message=f"Use `jnp.{func}`",
        )
