"""JAX208 fixed-seed-in-repeated-function: `jax.random.key(<constant>)` in a function that runs
repeatedly (a scan body, a step called in a loop, a vmapped function) and consumed there (fact:
`KeyFlow.fixed_seeds`).
"""

from __future__ import annotations

import ast

from jaxlint.rules.base import Context, Examples, Rule, Verify
from jaxlint.rules.prng._calls import KEY_FLOW_WORDS, callee_name


class FixedSeedInRepeatedFunction(Rule):
    """Flags `jax.random.key(<constant>)` made inside a function that runs repeatedly.

    What it does: finds `jax.random.key(seed)` / `PRNGKey(seed)` with a constant seed (a
    literal or a module-level name) inside a function that runs more than once with the
    same inputs, when the key is then consumed there. "Runs more than once": the body of
    `lax.scan`/`fori_loop`/`while_loop`, a vmapped function, a step called in a loop whose
    result is carried into the next iteration (`state = train_step(state, batch)`), and the
    functions these call. Not counted: test functions, and benchmarks (a function that reads
    a clock, itself or through a function it calls), which repeat their inputs on purpose; a
    function called once per configuration (`results[n] = run(n)`) is not a step either. A
    key made inside a loop of the same function is JAX202's.
    Why is this bad: the function recreates the same key on every call, so every step draws
    the same "random" numbers (the same dropout mask, the same noise, the same minibatch).
    Example:
        def train_step(params, batch):
            key = jax.random.key(0)
            mask = jax.random.bernoulli(key, 0.9, batch.shape)
            ...

        for batch in batches:
            params = train_step(params, batch)
    Use instead:
        def train_step(params, batch, key):
            mask = jax.random.bernoulli(key, 0.9, batch.shape)
            ...

        for batch in batches:
            key, step_key = jax.random.split(key)
            params = train_step(params, batch, step_key)
    No automatic fix: the function needs a key parameter and its callers a key to split.
    """

    code = "JAX208"
    name = "fixed-seed-in-repeated-function"
    message = (
        "`{call}` makes the same key on every run of `{fn}` ({why}), so `{consumer}` draws "
        "the same numbers each time; take a key parameter and split a fresh key per call"
    )
    verifier = "draws"
    verify = Verify(runs_twice=True)
    examples = Examples(
        invalid=(
            """
            import jax

            def train_step(params, batch):
                key = jax.random.key(0)  # error: JAX208
                mask = jax.random.bernoulli(key, 0.9, batch.shape)
                return params - 0.1 * (batch * mask).mean()

            def train(params, batches):
                for batch in batches:
                    params = train_step(params, batch)
                return params
            """,
            """
            import jax
            from jax import lax

            SEED = 42

            def simulate(x0, n):
                def step(x, _):
                    noise = jax.random.normal(jax.random.PRNGKey(SEED), x.shape)  # error: JAX208
                    return x + 0.1 * noise, x
                return lax.scan(step, x0, None, length=n)
            """,
            """
            import jax
            import jax.numpy as jnp

            # a closure factory (stax style, jax-ml/jax#170): the loop runs `apply_fun`
            def Dropout(rate):
                def apply_fun(params, inputs):
                    rng = jax.random.PRNGKey(0)  # error: JAX208
                    keep = jax.random.bernoulli(rng, rate, inputs.shape)
                    return jnp.where(keep, inputs / rate, 0)

                return apply_fun

            def forward(x, n_layers):
                apply_fun = Dropout(0.5)
                for _ in range(n_layers):
                    x = apply_fun((), x)
                return x
            """,
        ),
        valid=(
            """
            import jax

            def train_step(params, batch, key):
                mask = jax.random.bernoulli(key, 0.9, batch.shape)
                return params - 0.1 * (batch * mask).mean()

            def train(params, batches, key):
                for batch in batches:
                    key, step_key = jax.random.split(key)
                    params = train_step(params, batch, step_key)
                return params
            """,
            """
            import jax

            def init(shape):
                key = jax.random.key(0)
                return jax.random.normal(key, shape)

            params = init((3, 3))
            """,
            """
            import jax

            def test_step_shapes():
                for n in (1, 2):
                    assert make(n).shape == (n,)

            def make(n):
                return jax.random.normal(jax.random.key(0), (n,))
            """,
            """
            import jax

            def step(x, seed):
                key = jax.random.key(seed)
                return x + jax.random.normal(key, x.shape)

            def run(x, n):
                for i in range(n):
                    x = step(x, i)
                return x
            """,
        ),
    )
    prefilter_words = KEY_FLOW_WORDS

    def visit_Module(self, node: ast.Module, ctx: Context) -> None:
        for f in ctx.keys.fixed_seeds:
            self.report(
                f.node,
                call=ctx.text(f.node),
                fn=getattr(f.fn, "name", "lambda"),
                why=f.why,
                consumer=callee_name(ctx, f.consumer),
            )
