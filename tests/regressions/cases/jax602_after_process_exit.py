"""A timed region after an unconditional `sys.exit()` never runs: the flow graph ends the
block at a process exit (analysis/flow/cfg_build.py `_terminates`), and `FlowGraphs.unreachable`
keeps the behavioural families silent there (v24 row, tuning material: UPIX
tests/test_pmap.py:171-176, JAX602). The twin: an exit under a condition, after which the
timed region does run."""

import sys
import time

import jax


def bench(x):
    f = jax.jit(lambda v: v * 2)
    print(f(x))
    sys.exit(0)
    t0 = time.perf_counter()
    y = f(x)
    return time.perf_counter() - t0, y


def bench_twin(x):
    f = jax.jit(lambda v: v * 2)
    if x.shape[0] > 3:
        sys.exit(0)
    t0 = time.perf_counter()
    y = f(x)  # error: JAX601, JAX602
    return time.perf_counter() - t0, y


def run(keys):
    k = keys[0]
    a = jax.random.normal(k, (3,))
    return a
    b = jax.random.normal(k, (3,))
    return a + b
