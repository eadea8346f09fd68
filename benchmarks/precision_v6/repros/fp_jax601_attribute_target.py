"""FP (default JAX601), jax_verify extensions/functional_lagrangian/dual_solve.py:199.

`dual_params, dual_state.opt_state, dual_state.loss, stats = grad_step(...)`; the region then
syncs on the output bound to the attribute `dual_state.loss` (`if dual_state.loss <= ...`, and
`dual_state.loss.block_until_ready()` when block_to_time) before `time.time()`. With plain-name
targets (`params, loss = step(params)`) the same syncs are seen and nothing fires; with the
attribute target `state.loss` the block is not credited and the rule asks to block `params`.
(Static check only: `python -m jaxlint check --select JAX601 fp_jax601_attribute_target.py`
fires on solve_attr, not on solve_name; twin: solve_attr_unsynced must fire.)
"""

import time

import jax
import jax.numpy as jnp

step = jax.jit(lambda p: (p * 2.0, jnp.sum(p)))


def solve_name(params, n):
    for _ in range(n):
        t0 = time.time()
        params, loss = step(params)
        loss.block_until_ready()
        print(time.time() - t0)
    return params


def solve_attr(state, params, n):
    for _ in range(n):
        t0 = time.time()
        params, state.loss = step(params)
        state.loss.block_until_ready()
        print(time.time() - t0)
    return params


def solve_attr_unsynced(state, params, n):
    for _ in range(n):
        t0 = time.time()
        params, state.loss = step(params)
        print(time.time() - t0)
    return params
