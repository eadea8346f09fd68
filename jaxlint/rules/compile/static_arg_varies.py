"""static-arg-varies (JAX403): a static argument of a jitted function that changes in
every step of a loop (a schedule value, a counter, a new identity-hashed instance):
each new value is a new cache key, so every step traces and compiles again.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.hoisting import few_steps
from jaxlint.analysis.jit_sites import jitted_callee, local_class
from jaxlint.analysis.loops import sets_shape
from jaxlint.rules.base import Context, Examples, Rule
from jaxlint.rules.compile._text import shorten
from jaxlint.rules.compile._values import identity_hashed_class


class StaticArgVaries(Rule):
    """Flags a static argument that changes in every step of a loop.

    What it does: in a `for`/`while` loop that calls a function jitted in this module,
    flags an argument at a static position (`static_argnums`/`static_argnames`) that depends
    on the loop variable or a counter updated in the loop (learning-rate schedules, step
    numbers), or that is a new instance of a plain class (hashed by identity) on every call.
    Why is this bad: each distinct static value is a new cache key, so every step traces and
    compiles again (5 distinct learning rates: 5 compiles, ~290 ms, versus 1 when traced).
    Example:
        @partial(jax.jit, static_argnames="lr")
        def sgd(p, g, lr): return p - lr * g
        for lr in schedule:
            p = sgd(p, g, lr=lr)
    Use instead:
        @jax.jit
        def sgd(p, g, lr): return p - lr * g     # lr traced: one compile
    Fix: none (making the argument traced breaks code that uses it for shapes or Python
    control flow).
    """

    code = "JAX403"
    tier = 2
    name = "static-arg-varies"
    message = "static argument `{param}` of `{fn}` {why} {where}: each new value traces and compiles again; make it a traced argument (drop it from `static_argnums`/`static_argnames`) if it is only used in arithmetic"
    verifier = "compiles"
    examples = Examples(
        invalid=(
            """
            from functools import partial
            import jax

            @partial(jax.jit, static_argnames="lr")
            def sgd(p, g, lr):
                return p - lr * g

            def train(p, g, schedule):
                for lr in schedule:
                    p = sgd(p, g, lr=float(lr))  # error: JAX403
                return p
            """,
            """
            import jax

            def rollout(x, n_steps):
                for _ in range(n_steps):
                    x = x * 0.5
                return x

            rollout_jit = jax.jit(rollout, static_argnums=1)

            def run(x):
                horizon = 1
                while horizon < 100:
                    x = rollout_jit(x, horizon)  # error: JAX403
                    horizon *= 2
                return x
            """,
            """
            from functools import partial
            import jax

            class Options:
                def __init__(self, scale):
                    self.scale = scale

            @partial(jax.jit, static_argnums=1)
            def apply(x, opts):
                return x * opts.scale

            def run(xs):
                return [apply(x, Options(2.0)) for x in xs]  # error: JAX403
            """,
        ),
        valid=(
            """
            from functools import partial
            import jax

            @partial(jax.jit, static_argnames="training")
            def forward(x, training):
                return x * 0.5 if training else x

            def train(batches):
                for i, batch in enumerate(batches):
                    out = forward(batch, training=True)  # static, but the same every step
                    metric = forward(batch * i, training=False)
                return out, metric
            """,
            """
            import jax

            @jax.jit
            def sgd(p, g, lr):
                return p - lr * g  # lr traced: one compile for every value

            def train(p, g, schedule):
                for lr in schedule:
                    p = sgd(p, g, lr)
                return p
            """,
            """
            from functools import partial
            import jax

            @partial(jax.jit, static_argnames="lr")
            def sgd(p, g, lr):
                return p - lr * g

            def sweep(p, g):
                for lr in [1e-1, 3e-2, 1e-2, 3e-3, 1e-3]:  # a spelled-out sweep
                    print(lr, sgd(p, g, lr=lr))
            """,
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        spec = jitted_callee(ctx.facts, node)
        if spec is None or spec.unknown_static or not (spec.static_positions or spec.static_names):
            return
        step = ctx.facts.loops.per_step(node)
        if step is None or step.traced or not step.direct or few_steps(step):
            return
        if step.over_written_values:
            return  # a sweep over spelled-out values: one compile each, on purpose
        target = ctx.facts.traced.traced_callee(node)
        for param, arg in spec.static_arguments(node):
            why = None
            if target is not None and sets_shape(target, param):
                continue  # `jnp.arange(n)`: one program per value, by necessity
            if step.varies(arg) and not step.values_repeat(arg):
                shown = shorten(ctx, arg)
                why = "changes" if shown == param else f"(`{shown}`) changes"
            elif isinstance(arg, ast.Call):
                cls = local_class(ctx.index, arg.func)
                if cls is not None and identity_hashed_class(ctx, cls):
                    why = f"is a new `{cls.name}` instance (hashed by identity)"
            if why is not None:
                self.report(arg, param=param, fn=spec.name, why=why, where=step.describe())
