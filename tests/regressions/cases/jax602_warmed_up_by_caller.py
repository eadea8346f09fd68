"""A timed helper that its caller calls once and throws the result away before the call
whose time it keeps: only that warm-up call compiles (recall v3's twin of anindex/gtmp#1,
`run_planner(keys, state)[0].block_until_ready()` then `paths, planning_time =
run_planner(keys, state)`; `timing_intent.warmed_up_by_callers`). The twins: a helper
whose first call's timing is kept, and one whose "warm-up" value is printed."""

import time

import jax
import jax.numpy as jnp


@jax.jit
def plan(x):
    return jnp.tanh(x @ x.T).sum()


@jax.jit
def plan_b(x):
    return jnp.sin(x).sum()


@jax.jit
def plan_c(x):
    return jnp.cos(x).sum()


def run_planner(x):
    start = time.perf_counter()
    out = plan(x)
    jax.block_until_ready(out)
    return out, time.perf_counter() - start


def run_cold(x):
    start = time.perf_counter()
    out = plan_b(x)  # error: JAX602
    jax.block_until_ready(out)
    return out, time.perf_counter() - start


def run_printed(x):
    start = time.perf_counter()
    out = plan_c(x)  # error: JAX602
    jax.block_until_ready(out)
    return out, time.perf_counter() - start


def main():
    x = jnp.ones((64, 64))
    run_planner(x)[0].block_until_ready()
    out, dt = run_planner(x)
    out_b, dt_b = run_cold(x)
    print(run_printed(x))
    out_c, dt_c = run_printed(x)
    return dt, dt_b, dt_c
