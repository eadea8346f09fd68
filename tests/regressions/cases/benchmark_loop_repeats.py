"""A timing loop repeats the same work on purpose: a loop between two clock reads (or reading
one itself) that threads no value from one step into the next (`analysis/loops.py`
`benchmark_loop`). Its fixed key and its per-step conversions are what it measures.

From the v14 tuning half: f1tenth_gym_jax `examples/benchmark_example.ipynb` (cell 12: 100
rollouts from `env_init(rng)` between `tick`/`tock`, JAX201), aequus_jax
`poker_bot/core/integration_manager.py:62` (JAX201 in a 100-iteration timing loop) and
cosmocnc_jax `tests/check_analytical.py:141` (`jnp.array([0.])` in the timed 'new way' loop,
JAX407).

The twins: a timed training loop threads its state (`params = step(params, key)`) with a key
that is never advanced, so every step draws the same noise (JAX201 fires), and converts the
same list every step (JAX407 fires).
"""

import time

import jax
import jax.numpy as jnp


@jax.jit
def env_init(rng):
    return jax.random.normal(rng, (8,))


@jax.jit
def env_step(state, x):
    return state + x, state


def bench_rollouts(rng, z_vec, n=100):
    env_init(jax.random.key(1)).block_until_ready()
    env_step(jnp.ones(8), jnp.ones(8))[0].block_until_ready()
    tick = time.time()
    for _ in range(n):
        runner_state = jax.random.uniform(rng, (8,))
        runner_state, states = jax.lax.scan(env_step, runner_state, jnp.ones(4))
        z_with_0 = jnp.concatenate([jnp.array([0.0]), z_vec])
    jax.block_until_ready((runner_state, z_with_0))
    tock = time.time()
    return (tock - tick) / n, z_with_0


@jax.jit
def train_step(params, noise):
    return params - 0.1 * noise


def timed_training(params, key, steps=1000):
    for _ in range(steps):
        t0 = time.time()
        noise = jax.random.normal(key, params.shape)  # error: JAX201
        params = train_step(params, noise * jnp.array([0.5, 2.0]))  # error: JAX407
        params.block_until_ready()
        print(time.time() - t0)
    return params
