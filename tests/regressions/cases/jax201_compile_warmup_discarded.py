"""A compile warm-up: a jitted step called once with the key and its result only waited for
(`step_fn(A, b, key).block_until_ready()`), then the timed runs draw from `split(key)`'s
children. Nothing the warm-up drew is read, so the split after it reuses nothing (v20 rows,
tuning material: JAX-AMG demo/solver_cache_benchmark.py:50-53 and :73-76, feedbax
train.py:445-480, JAX201 x3; `deadness._waited_for_only`, key_products of a jitted helper
and through arithmetic). The twin keeps the warm-up's result."""

import time

import jax


@jax.jit
def step_fn(a, key):
    return a + jax.random.normal(key, a.shape)


def bench(a, n):
    key = jax.random.PRNGKey(0)
    step_fn(a, key).block_until_ready()
    for _ in range(n):
        key, subkey = jax.random.split(key)
        t0 = time.time()
        x = step_fn(a, subkey).block_until_ready()
        print(time.time() - t0, x)


def bench_waited(a):
    key = jax.random.PRNGKey(0)
    jax.block_until_ready(step_fn(a, key))
    key, subkey = jax.random.split(key)
    return step_fn(a, subkey)


def warm_twin(a):
    key = jax.random.PRNGKey(0)
    y = step_fn(a, key).block_until_ready()
    key, subkey = jax.random.split(key)  # error: JAX201
    return y + step_fn(a, subkey)
