"""A timed loop switched off with `for n in range(0):`: its body never runs, so the region
times no JAX work and compiles nothing (v22 rows, tuning material: a solver.py:77 whose
`for n in range(0):` holds the only `time_step` call, JAX601 and JAX602;
`sync.executed`, `pending._Walk.statement`). The twin's loop runs ten steps."""

import time

import jax


@jax.jit
def time_step(u):
    return u * 0.5


def solve(u):
    t0 = time.time()
    for _ in range(0):
        u = time_step(u)
    print(time.time() - t0)
    return u


@jax.jit
def time_step_twin(u):
    return u * 0.5


def solve_twin(u):
    t0 = time.time()
    for _ in range(10):
        u = time_step_twin(u)  # error: JAX601, JAX602
    print(time.time() - t0)
    return u
