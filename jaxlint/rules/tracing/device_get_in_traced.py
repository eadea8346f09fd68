"""JAX102: `jax.device_get` on a traced value inside a traced function.

Under tracing there is no data on any device, so `jax.device_get` returns the tracer unchanged;
the fix deletes the call (keeping its argument, parenthesized where needed).
"""

from __future__ import annotations

import ast

from jaxlint.analysis import Level, syntax
from jaxlint.rules.base import Context, Examples, Rule, Verify


def _paren(ctx: Context, node: ast.AST) -> str:
    """The source of `node`, parenthesized unless it is atomic."""
    text = ctx.text(node)
    atomic = (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.Constant, ast.List, ast.Dict)
    if isinstance(node, atomic) or (isinstance(node, ast.Tuple) and text.startswith("(")):
        return text
    return f"({text})"


_DEVICE_GET = frozenset({"jax.device_get"})


class DeviceGetInTraced(Rule):
    """Flags `jax.device_get` on a traced value inside a traced function.

    What it does: finds `jax.device_get(x)` where `x` is traced, inside a function that JAX
    traces (jit, vmap, scan/fori_loop bodies, helpers called from them, ...).
    Why is this bad: under tracing there is no data on any device yet. `jax.device_get`
    returns the tracer unchanged (a silent no-op): nothing is copied to the host, and code that
    expects a NumPy array after it gets a tracer and fails later (or is just misleading).
    Example:
        @jax.jit
        def step(x):
            loss = jnp.mean(x ** 2)
            return jax.device_get(loss)
    Use instead:
        @jax.jit
        def step(x):
            return jnp.mean(x ** 2)

        loss = jax.device_get(step(x))  # outside the traced function
    Fix: delete the call and keep its argument (safe: inside traced code it is the identity).
    """

    code = "JAX102"
    traced_evidence = True
    name = "device-get-in-traced"
    message = (
        "`jax.device_get` inside a traced function is a no-op that returns the tracer: {why}; "
        "delete the call here and call `jax.device_get` on the result outside the traced function"
    )
    fix_safety = "safe"
    verifier = "trace"
    verify = Verify(
        expect=("ConcretizationTypeError", "TracerArrayConversionError"),
        observe=("jax", "device_get"),
        observe_confirms="traced-input",
    )
    templates = ("mre",)
    examples = Examples(
        invalid=(
            """
            import jax
            import jax.numpy as jnp

            @jax.jit
            def train_step(params, batch):
                loss = jnp.mean((batch @ params) ** 2)
                return jax.device_get(loss)  # error: JAX102
            """,
            """
            from jax import device_get, lax

            def body(carry, x):
                carry = carry + device_get(x)  # error: JAX102
                return carry, carry

            def run(xs):
                return lax.scan(body, 0.0, xs)
            """,
            """
            import jax

            def to_host(tree):
                return jax.device_get(tree)  # error: JAX102

            @jax.vmap
            def per_example(x):
                return to_host({"y": x * 2})
            """,
            """
            import jax
            from functools import partial

            jit = jax.jit

            class Trainer:
                @partial(jit, static_argnums=(0, 1))  # meant `cfg`, but index 1 is `batch`
                def step(self, batch, cfg, scale):
                    host_scale = jax.device_get(cfg["scale"])  # error: JAX102
                    return batch * host_scale * scale
            """,
        ),
        valid=(
            """
            import jax

            @jax.jit
            def step(x):
                return x * 2

            def train(x):
                return jax.device_get(step(x))
            """,
            """
            import jax
            import numpy as np

            def host_fn(a):
                return np.asarray(jax.device_get(a)) + 1

            @jax.jit
            def f(x):
                return jax.pure_callback(host_fn, jax.ShapeDtypeStruct(x.shape, x.dtype), x)
            """,
            """
            import jax
            from functools import partial

            @partial(jax.jit, static_argnums=(1,))
            def f(x, cfg):
                table = jax.device_get(cfg)
                return x * len(table)
            """,
        ),
        fixes=(
            (
                """
                import jax

                @jax.jit
                def f(x, y):
                    z = jax.device_get(x + y) * 2
                    return jax.device_get(z)
                """,
                """
                import jax

                @jax.jit
                def f(x, y):
                    z = (x + y) * 2
                    return z
                """,
            ),
        ),
    )

    def callee_filter(self) -> frozenset[str]:
        return _DEVICE_GET  # `visit_Call` returns at once for any other callee

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not ctx.in_jit or ctx.qualname(node.func) != "jax.device_get":
            return
        if len(node.args) != 1 or node.keywords or isinstance(node.args[0], ast.Starred):
            return
        arg = node.args[0]
        if not (ctx.taint.is_traced(arg) or ctx.taint.level(arg) == Level.CONTAINER):
            return
        parent = syntax.parent(node)
        bare = isinstance(parent, (ast.Assign, ast.Return, ast.Expr, ast.keyword, ast.Call))
        replacement = ctx.text(arg) if bare and not isinstance(arg, ast.Tuple) else _paren(ctx, arg)
        fix = self.fix(ctx.replace(node, replacement), message="Delete the `jax.device_get` call")
        self.report(node, why=ctx.why_traced(arg), fix=fix)
