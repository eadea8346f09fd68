"""An output bound to an attribute target (`params, state.loss = step(params)`) and then
waited for on the host (`state.loss.block_until_ready()`, `if state.loss <= best:`) finishes
the whole call (one program's outputs are ready together), as it does with plain names
(google-deepmind/jax_verify `functional_lagrangian/dual_solve.py:199`: JAX601 in the default
selection, a false positive of corpus v6's tuning half). The twin: nothing waits, and the
timing measures dispatch.
"""

import time

import jax
import jax.numpy as jnp

step = jax.jit(lambda p: (p * 2.0, jnp.sum(p)))


def solve_attr(state, params, n):
    for _ in range(n):
        t0 = time.time()
        params, state.loss = step(params)
        state.loss.block_until_ready()
        print(time.time() - t0)
    return params


def solve_attr_test(state, params, n):
    for _ in range(n):
        t0 = time.time()
        params, state.loss = step(params)
        if state.loss <= state.best:
            state.best = state.loss
        print(time.time() - t0)
    return params


def twin(state, params, n):
    for _ in range(n):
        t0 = time.time()
        params, state.loss = step(params)  # error: JAX601
        print(time.time() - t0)
    return params


def twin_rebound(state, params, n):
    for _ in range(n):
        t0 = time.time()
        params, state.loss = step(params)  # error: JAX601
        state = make_state()
        state.loss.block_until_ready()
        print(time.time() - t0)
    return params


def make_state():
    return None
