"""A timing helper that calls a parameter (`def benchmark(fn, *args): ... fn(*args)`) runs
the functions its callers pass: when every visible call passes a jitted function, the timed
call dispatches device work and returns before it finishes (recall case
batch_benchmark_no_block, gbionics/jaxsim#344; `CallGraph.parameter_arguments`). The twin is
called with a NumPy function too: what it times is unknown, and it stays silent."""

import time

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def forward(q):
    return jnp.linalg.inv(q @ q.T + jnp.eye(q.shape[0]))


def benchmark(fn, *args, repeats=5):
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn(*args)  # error: JAX601
        best = min(best, time.perf_counter() - start)
    return best


def benchmark_mixed(fn, *args):
    start = time.perf_counter()
    fn(*args)
    return time.perf_counter() - start


def main():
    q = jnp.ones((64, 64))
    print(benchmark(forward, q), benchmark(jax.jit(jnp.sum), q))
    print(benchmark_mixed(forward, q), benchmark_mixed(np.linalg.inv, np.eye(3)))
