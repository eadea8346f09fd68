"""JAX103: `print` of a traced value inside a traced function.

`print` runs once, at trace time, and shows a tracer instead of the data; the fix rewrites it to
`jax.debug.print`, escaping braces in literal text because that call formats its message.
"""

from __future__ import annotations

import ast

from jaxlint.analysis import Level
from jaxlint.edits.imports import ensure_module
from jaxlint.rules.base import Context, Examples, Rule

GRAD_MESSAGE = "`print` under `{via}` shows a tracer, not the value: {why}; use `jax.debug.print`"


class PrintTracedValue(Rule):
    """Flags `print` of traced values inside traced functions.

    What it does: finds `print(...)` calls whose arguments (or f-string parts) are traced.
    Why is this bad: `print` runs once, at trace time, and shows `JitTracer(float32[3])` instead
    of the data; later calls of the compiled function print nothing. Under `jax.grad` (and
    `value_and_grad`, `jacrev`, ...) alone the body runs on every call, but on tracers: the
    print shows `GradTracer(primal=5.0, ...)`, never the number.
    Example:
        @jax.jit
        def f(x):
            print("x =", x)
            return x * 2
    Use instead:
        @jax.jit
        def f(x):
            jax.debug.print("x = {}", x)
            return x * 2
    Fix: -> `jax.debug.print("...", ...)` (unsafe: it then prints on every call, from the
    device, possibly out of order). Printing static values (`x.shape`, `x.dtype`) is fine.
    """

    code = "JAX103"
    traced_evidence = True
    name = "print-traced-value"
    message = "`print` runs only at trace time and shows a tracer, not the value: {why}; use `jax.debug.print`"
    fix_safety = "unsafe"
    verifier = "execcount"
    templates = ("mre",)
    examples = Examples(
        invalid=(
            """
            import jax

            @jax.jit
            def f(x):
                print("x =", x)  # error: JAX103
                return x * 2
            """,
            """
            import jax
            from jax import lax

            def step(carry, x):
                total = carry + x
                print(f"total={total}")  # error: JAX103
                return total, total

            def run(xs):
                return lax.scan(step, 0.0, xs)
            """,
            """
            import jax

            def loss(w):
                print("w =", w)  # error: JAX103
                return (w**2).sum()

            grads = jax.grad(loss)
            """,
        ),
        valid=(
            """
            import jax

            @jax.jit
            def f(x):
                print("shape:", x.shape, f"{x.dtype}")
                jax.debug.print("x={}", x)
                return x
            """,
            """
            def f(x):
                print(x)
            """,
            """
            import jax

            def loss(w, name):
                print("loss of", name, w.shape)
                jax.debug.print("w = {}", w)
                return (w**2).sum()

            grads = jax.grad(loss)
            """,
        ),
        unsafe_fixes=(
            (
                """
                import jax

                @jax.jit
                def f(x):
                    print("x =", x, "shape", x.shape)
                    return x
                """,
                """
                import jax

                @jax.jit
                def f(x):
                    jax.debug.print("x = {} shape {}", x, x.shape)
                    return x
                """,
            ),
            (
                """
                import jax

                @jax.jit
                def f(x):
                    print(f"x={x:.3f}!")
                    return x
                """,
                """
                import jax

                @jax.jit
                def f(x):
                    jax.debug.print("x={:.3f}!", x)
                    return x
                """,
            ),
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        fn = ctx.function
        if fn is None or not (fn.is_jit or fn.is_grad) or ctx.qualname(node.func) != "print":
            return
        traced = [a for a in node.args if _contains_traced(ctx, a)]
        if not traced:
            return
        why = ctx.why_traced(traced[0])
        if fn.is_jit:
            self.report(node, why=why, fix=self._fix(node, ctx))
            return
        # under `grad` alone the body runs on every call, but on tracers (`JVPTracer`,
        # `GradTracer`): the print shows the tracer, never the number
        self.report(
            node,
            GRAD_MESSAGE.format(why=why, via=fn.via),
            fix=self._fix(node, ctx),
        )

    def _fix(self, node: ast.Call, ctx: Context):  # noqa: ANN202
        sep = " "
        for kw in node.keywords:
            if (
                kw.arg == "sep"
                and isinstance(kw.value, ast.Constant)
                and isinstance(kw.value.value, str)
            ):
                sep = kw.value.value
            else:
                return None  # file=, end=, flush=: no faithful equivalent
        parts: list[str] = []
        values: list[str] = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                return None
            if isinstance(a, ast.Constant) and isinstance(a.value, str):
                parts.append(_escape(a.value))
            elif isinstance(a, ast.JoinedStr):
                piece = ""
                for v in a.values:
                    if isinstance(v, ast.Constant):
                        piece += _escape(str(v.value))
                    elif isinstance(v, ast.FormattedValue):
                        conv = {-1: "", 115: "!s", 114: "!r", 97: "!a"}[v.conversion]
                        spec = ""
                        if v.format_spec is not None:
                            if not all(isinstance(s, ast.Constant) for s in v.format_spec.values):  # type: ignore[attr-defined]
                                return None
                            spec = ":" + "".join(str(s.value) for s in v.format_spec.values)  # type: ignore[attr-defined]
                        piece += "{" + conv + spec + "}"
                        values.append(ctx.text(v.value))
                parts.append(piece)
            else:
                parts.append("{}")
                values.append(ctx.text(a))
        fmt = sep.join(parts)
        try:
            jax_name, edits = ensure_module(ctx, "jax")
        except LookupError:
            return None
        args = ", ".join([repr(fmt).replace("'", '"') if '"' not in fmt else repr(fmt), *values])
        return self.fix(
            ctx.replace(node, f"{jax_name}.debug.print({args})"),
            *edits,
            message="Use `jax.debug.print`",
        )


def _escape(s: str) -> str:
    return s.replace("{", "{{").replace("}", "}}")


def _contains_traced(ctx: Context, node: ast.AST) -> bool:
    if ctx.taint.is_traced(node) or ctx.taint.level(node) == Level.CONTAINER:
        return True
    if isinstance(node, ast.JoinedStr):
        return any(
            isinstance(v, ast.FormattedValue) and ctx.taint.is_traced(v.value) for v in node.values
        )
    return False
