"""A benchmark warms a jitted step up with the key it later splits: the warm-up's value is
dropped (only waited for), and a compiled function hands its draws out only through what it
returns, so no number drawn there is ever read, whatever its body computes (here a library
solve, which key_products cannot follow). v20 rows, tuning material: JAX-AMG
demo/solver_cache_benchmark.py:50-53 and :73-76, JAX201 (analysis/flow/key_products.py
`dropped_compiled_call`). The twins: a warm-up whose value is kept and returned, and a
warm-up of a jitted body that prints its draws through a host callback."""

import time

import jax
import solverlib


def run_benchmark(A, b, n_runs=5):
    key = jax.random.PRNGKey(0)

    @jax.jit
    def step_fn(A, b, key):
        perturbation = jax.random.uniform(key, b.shape, minval=-0.01, maxval=0.01)
        x = solverlib.solve(A, b + perturbation)
        return x.sum()

    step_fn(A, b, key).block_until_ready()  # warm-up: its value is dropped

    times = []
    for _ in range(n_runs):
        key, subkey = jax.random.split(key)
        t0 = time.time()
        step_fn(A, b, subkey).block_until_ready()
        times.append(time.time() - t0)
    return times


def _step(A, b, key):
    return solverlib.solve(A, b + jax.random.uniform(key, b.shape)).sum()


step = jax.jit(_step)


def run_aliased(A, b):
    key = jax.random.PRNGKey(0)
    step(A, b, key)
    key, subkey = jax.random.split(key)
    return step(A, b, subkey)


def run_kept_twin(A, b):
    key = jax.random.PRNGKey(0)

    @jax.jit
    def step_fn(A, b, key):
        return solverlib.solve(A, b + jax.random.uniform(key, b.shape)).sum()

    first = step_fn(A, b, key)
    key, subkey = jax.random.split(key)  # error: JAX201
    return first, step_fn(A, b, subkey)


def run_callback_twin(A, b):
    key = jax.random.PRNGKey(0)

    @jax.jit
    def step_fn(A, b, key):
        noise = jax.random.uniform(key, b.shape)
        jax.debug.callback(print, noise)
        return solverlib.solve(A, b + noise).sum()

    step_fn(A, b, key)
    key, subkey = jax.random.split(key)  # error: JAX201
    return step_fn(A, b, subkey)
