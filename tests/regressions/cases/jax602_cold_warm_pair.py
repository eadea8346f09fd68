"""A first-call timing followed by a timing of the same call is the cold half of a cold/warm
pair, measured on purpose (v16 rows, tuning material: EQuS/jaxquantum notebooks, JAX602 x21:
`%timeit -n1 -r1 f(x)  # Warm-up` then `%timeit f(x)  # Should be faster`;
`timing_intent.timed_again`). The twins: a first-call timing with no second one, and one
followed by a timing of another function."""

import time

import jax
import jax.numpy as jnp


def solve(x):
    return jnp.linalg.solve(x @ x.T + jnp.eye(x.shape[0]), x)


def twice(x):
    f = jax.jit(solve)
    t0 = time.perf_counter()
    f(x).block_until_ready()
    dt_a = time.perf_counter() - t0
    t0 = time.perf_counter()
    f(x).block_until_ready()
    dt_b = time.perf_counter() - t0
    return dt_a, dt_b


def once(x):
    f = jax.jit(solve)
    t0 = time.perf_counter()
    f(x).block_until_ready()  # error: JAX602
    return time.perf_counter() - t0


def then_other(x):
    f = jax.jit(solve)
    g = jax.jit(jnp.sin)
    g(x).block_until_ready()
    t0 = time.perf_counter()
    f(x).block_until_ready()  # error: JAX602
    dt_f = time.perf_counter() - t0
    t0 = time.perf_counter()
    g(x).block_until_ready()
    return dt_f, time.perf_counter() - t0
