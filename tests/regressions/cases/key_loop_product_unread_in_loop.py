"""JAX201: a loop that splits a key it never rebinds, but never reads the result in the loop.

Reduced from probcomp/bayes3d scripts/experiments/deeplearning/dino/dino_interactive.ipynb
cell 24 (and two copies; v26 check set, FP x3, tuning material now): each step runs
`keys = jax.random.split(key)[1]` with `key` never rebound, then deterministic matching work
that never reads `keys`; only the last step's value survives the loop and is drawn from once
after it. Every step recomputes the same value, and no two steps' numbers are used
(analysis/flow/loop_products.py). The marked lines are the near misses: `noise` is read in
the step (every step draws the same numbers), and `sub` is read by a function the step calls.
"""

import jax
import jax.numpy as jnp

key = jax.random.PRNGKey(0)
scores = []
for i in range(5):
    keys = jax.random.split(key)[1]
    emb = jnp.ones(3) * i
    scores.append(emb.sum())
sample = jax.random.normal(keys, (3,))


def run(key, xs):
    outs = []
    for x in xs:
        noise = jax.random.normal(key, x.shape)  # error: JAX201
        outs.append(x + noise)
    return outs


def run_jittered(key, xs):
    def jitter(x):
        return x + jax.random.normal(sub, x.shape)

    outs = []
    for x in xs:
        sub = jax.random.split(key)[0]  # error: JAX201
        outs.append(jitter(x))
    return outs
