"""A benchmark named for compilation (`benchmark_jit_compilation`), and a test whose docstring
says it compares the compiling first call with the cached second one, time the first call on
purpose (v24 rows, tuning material: distillation-jax jax_distillation/validation/benchmarks.py:189
and tests/test_jit_compilation.py:152, JAX602; analysis/timing_intent.py
`_named_for_compilation`). The twin: a throughput benchmark whose first timed call compiles."""

import time

import jax
import jax.numpy as jnp


def benchmark_jit_compilation(sizes=(5, 10, 20)):
    results = {}
    for n in sizes:
        # a new function per size, to force a fresh compilation
        def make_step_fn(scale):
            def step_fn(s):
                return jnp.cumsum(s) * scale

            return step_fn

        step_jit = jax.jit(make_step_fn(n))
        state = jnp.ones(n)
        start = time.perf_counter()
        out = step_jit(state)
        jax.block_until_ready(out)
        results[n] = time.perf_counter() - start
    return results


def test_jit_second_call_uses_cache():
    """Second JIT call should be faster (uses cached compilation)."""
    jit_step = jax.jit(lambda s: jnp.cumsum(s) * 2)
    state = jnp.ones(100)
    start1 = time.perf_counter()
    out = jit_step(state)
    jax.block_until_ready(out)
    time1 = time.perf_counter() - start1
    start2 = time.perf_counter()
    out = jit_step(state)
    jax.block_until_ready(out)
    time2 = time.perf_counter() - start2
    assert time2 < time1


def benchmark_throughput(n=1000):
    step = jax.jit(lambda s: jnp.cumsum(s) * 2)
    state = jnp.ones(n)
    start = time.perf_counter()
    out = step(state)  # error: JAX602
    jax.block_until_ready(out)
    return n / (time.perf_counter() - start)
