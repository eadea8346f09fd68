"""JAX204 host-rng-in-traced: `numpy.random` / Python `random` inside a traced function, which runs
once at trace time. The rule's prefilter gate derives from `HOST_RNG_PREFIXES`.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.values import assigned_value
from jaxlint.rules.base import Context, Examples, Rule, last_components

HOST_RNG_PREFIXES = ("numpy.random.", "random.")
GENERATOR_FACTORIES = {
    "numpy.random.default_rng",
    "numpy.random.RandomState",
    "numpy.random.Generator",
}


class HostRngInTraced(Rule):
    """Flags `numpy.random` / Python `random` inside traced functions.

    What it does: finds calls to `np.random.*`, NumPy `Generator` methods and the `random`
    module inside a function that JAX traces.
    Why is this bad: the host RNG runs once, at trace time; its result is baked into the
    compiled program as a constant, so every call returns the same "random" numbers.
    Host-side data loaders and `pure_callback` bodies are fine.
    Example:
        @jax.jit
        def add_noise(x):
            return x + np.random.normal(size=x.shape)
    Use instead:
        @jax.jit
        def add_noise(x, key):
            return x + jax.random.normal(key, x.shape)
    No automatic fix: the function needs a key argument.
    """

    code = "JAX204"
    traced_evidence = True
    name = "host-rng-in-traced"
    message = "`{call}` in a traced function runs once at trace time and is baked in as a constant ({why}); use `jax.random` with an explicit key"
    verifier = "retrace-cmp"
    prefilter_words = last_components(HOST_RNG_PREFIXES)  # `random`
    prefilter_with_default = True  # `random` alone is the stdlib's
    templates = ("training-step",)
    examples = Examples(
        invalid=(
            """
            import jax
            import numpy as np

            @jax.jit
            def add_noise(x):
                return x + np.random.normal(size=x.shape)  # error: JAX204
            """,
            """
            import jax
            import random

            @jax.vmap
            def jitter(x):
                return x * random.random()  # error: JAX204
            """,
            """
            import jax
            import numpy as np

            rng = np.random.default_rng(0)

            @jax.jit
            def f(x):
                return x + rng.normal()  # error: JAX204
            """,
        ),
        valid=(
            """
            import jax
            import numpy as np

            def loader(n):
                rng = np.random.default_rng(0)
                return rng.normal(size=(n, 3))

            @jax.jit
            def f(x, key):
                return x + jax.random.normal(key, x.shape)
            """,
        ),
    )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        fn = ctx.function
        if fn is None or not fn.is_jit:
            return
        q = ctx.qualname(node.func)
        call = None
        if q and q.startswith(HOST_RNG_PREFIXES) and q not in GENERATOR_FACTORIES:
            call = q.replace("numpy.", "np.")
        elif isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
            value = assigned_value(ctx.index, node.func.value)
            if isinstance(value, ast.Call):
                if ctx.qualname(value.func) in GENERATOR_FACTORIES:
                    call = ctx.text(node.func)
        if call:
            why = fn.describe()
            self.report(node, call=call, why=why)
