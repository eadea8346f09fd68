"""A split whose keys only reach a `functools.partial` that nothing calls draws nothing: a
partial reads its bound arguments only when it is called (`deadness._dead_partial_argument`).
The next consumer is then compared with the one before the split.

From the v38 check set (tuning material, read in context): jeh15/quadruped-osc
`src/algorithms/ppo/train.py:370` and `src/algorithms/osc/train.py:415`: `split(eval_key)`
bound with `functools.partial(randomization_fn, rng=...)` into a `render_randomization_fn`
that nothing uses (JAX201 high, read FP); the Evaluator and the Renderer that both take
`key=eval_key` are the real reuse.
"""

import functools

import jax


class Evaluator:
    def __init__(self, env, key):
        self.key = key
        self.obs = jax.random.normal(key, (3,))


class Renderer:
    def __init__(self, env, key):
        self.obs = jax.random.uniform(key, (3,))


def train(env, render_env, randomization_fn, eval_key):
    evaluator = Evaluator(env, key=eval_key)
    if render_env is not None:
        render_fn = None
        if randomization_fn is not None:
            render_key = jax.random.split(eval_key)
            render_fn = functools.partial(randomization_fn, rng=render_key)  # noqa: F841
        renderer = Renderer(render_env, key=eval_key)  # error: JAX201
        return evaluator, renderer
    return evaluator, None


def train_used(env, randomization_fn, eval_key):
    evaluator = Evaluator(env, key=eval_key)
    render_key = jax.random.split(eval_key)  # error: JAX201
    render_fn = functools.partial(randomization_fn, rng=render_key)
    return evaluator, render_fn
