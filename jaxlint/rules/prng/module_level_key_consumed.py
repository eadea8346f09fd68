"""JAX209 module-level-key-consumed: a key bound at module level and consumed inside a function
that runs repeatedly or in several places (fact: `KeyFlow.module_key_uses`).
"""

from __future__ import annotations

import ast

from jaxlint.rules.base import Context, Examples, Rule, Verify
from jaxlint.rules.prng._calls import KEY_FLOW_WORDS, callee_name


class ModuleLevelKeyConsumed(Rule):
    """Flags a key created at module level and consumed inside a function.

    What it does: finds a key bound at module level (`KEY = jax.random.key(0)`, or a `split`
    of one) that a function consumes (a sampler, `split`, or a helper that consumes it), when
    that function runs repeatedly (see JAX208: loop bodies, vmapped functions, functions called
    in a loop, a function called at two places one run may both reach) or when the key is
    consumed in more than one place (two functions, or a function and the module body). Test
    functions are not counted.
    Why is this bad: the function reads the same global key every time, so every call draws
    the same numbers, and two functions consuming it draw correlated numbers. Under `jax.jit`
    the key is even baked into the compiled function as a constant.
    Example:
        KEY = jax.random.key(0)

        def dropout(x):
            return x * jax.random.bernoulli(KEY, 0.9, x.shape)

        h1, h2 = dropout(a), dropout(b)  # the same mask twice
    Use instead:
        def dropout(x, key):
            return x * jax.random.bernoulli(key, 0.9, x.shape)

        k1, k2 = jax.random.split(key)
        h1, h2 = dropout(a, k1), dropout(b, k2)
    No automatic fix: the function needs a key parameter.
    """

    code = "JAX209"
    name = "module-level-key-consumed"
    message = (
        "the module-level key `{name}` (line {line}) is consumed here by `{consumer}` in "
        "`{fn}` ({why}): every use draws the same numbers; pass a key in and split a "
        "fresh one per call"
    )
    verifier = "draws"
    verify = Verify(runs_twice=True)
    tier = 2
    examples = Examples(
        invalid=(
            """
            import jax

            KEY = jax.random.key(0)

            def dropout(x):
                return x * jax.random.bernoulli(KEY, 0.9, x.shape)  # error: JAX209

            def train(xs):
                return [dropout(x) for x in xs]
            """,
            """
            import jax

            rng = jax.random.PRNGKey(0)
            params = jax.random.normal(rng, (3, 3))

            def sample_noise(shape):
                return jax.random.normal(rng, shape)  # error: JAX209
            """,
            """
            import jax

            KEY = jax.random.key(0)

            def dropout(x):
                return x * jax.random.bernoulli(KEY, 0.5, x.shape)  # error: JAX209

            def two_layers(a, b):
                return dropout(a), dropout(b)
            """,
        ),
        valid=(
            """
            import jax

            KEY = jax.random.key(0)

            def main():
                k1, k2 = jax.random.split(KEY)
                return jax.random.normal(k1), jax.random.normal(k2)

            if __name__ == "__main__":
                main()
            """,
            """
            import jax

            key = jax.random.key(0)

            def test_normal_shape():
                assert jax.random.normal(key, (2,)).shape == (2,)

            def test_uniform_shape():
                assert jax.random.uniform(key, (2,)).shape == (2,)
            """,
            """
            import jax

            BASE = jax.random.key(0)

            def step_key(i):
                return jax.random.fold_in(BASE, i)
            """,
            """
            import jax

            KEY = jax.random.key(0)

            def noise(shape):
                return jax.random.normal(KEY, shape)

            def init(train, shape):
                if train:
                    return noise(shape)
                else:
                    return noise(shape) * 0.1
            """,
        ),
    )
    prefilter_words = KEY_FLOW_WORDS

    def visit_Module(self, node: ast.Module, ctx: Context) -> None:
        for use in ctx.keys.module_key_uses:
            self.report(
                use.node,
                name=use.name,
                line=str(getattr(use.binding, "lineno", "?")),
                consumer=callee_name(ctx, use.node),
                fn=getattr(use.fn, "name", "lambda"),
                why=use.why,
            )
