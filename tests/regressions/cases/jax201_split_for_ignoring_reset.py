"""A split whose children only reach a function that never reads them: `reset(key)` of an
environment that starts every episode in the same state. The split drew nothing in use, so
drawing from its parent key afterwards reuses nothing (v20 rows, tuning material: qdx
icml2024-AI4science/notebooks/ours_vs_stim.ipynb, cells 10 and 14, JAX201;
`CallGraph.ignored_argument`). At module level too: a notebook's cells. The twins' `reset`
draws from its key, or takes it through `**kwargs`."""

import jax
import jax.numpy as jnp


@jax.jit
def reset(reset_rng):
    return jnp.zeros(3)


def reset_drawing(reset_rng):
    return jax.random.normal(reset_rng, (3,))


def reset_any(**kwargs):
    return jnp.zeros(3)


def run(n):
    rng = jax.random.key(0)
    rng, _rng = jax.random.split(rng)
    reset_rng = jax.random.split(_rng, n)
    state = jax.vmap(reset, in_axes=0)(reset_rng)
    actions = jax.random.choice(_rng, jnp.arange(4), shape=(n,))
    return state, actions


def run_drawing(n):
    rng = jax.random.key(0)
    rng, _rng = jax.random.split(rng)
    reset_rng = jax.random.split(_rng, n)
    state = jax.vmap(reset_drawing)(reset_rng)
    actions = jax.random.choice(_rng, jnp.arange(4), shape=(n,))  # error: JAX201
    return state, actions


def run_kwargs():
    rng = jax.random.key(0)
    reset_rng = jax.random.split(rng)
    state = reset_any(reset_rng=reset_rng)
    actions = jax.random.choice(rng, jnp.arange(4), shape=(2,))  # error: JAX201
    return state, actions


rng = jax.random.key(0)
rng, _rng = jax.random.split(rng)
reset_rng = jax.random.split(_rng, 4)
state = jax.vmap(reset, in_axes=0)(reset_rng)
actions = jax.random.choice(_rng, jnp.arange(4), shape=(4,))
