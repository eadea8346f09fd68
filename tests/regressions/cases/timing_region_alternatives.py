"""A timed region ends at any host sync reached from its outputs, on whichever arm of an
`if`/`match` ran: jax_privacy examples/dpmf_strategy_optimization.py:175 computes `loss` in
every `case` and reads `float(jnp.sqrt(loss))` before `t1`; pgx fig/generate_go_gif.py:32
writes the state out with `s.save_svg(...)` every few steps (a host read of the state). The
twin syncs a value that does not come from the timed work.
"""

import time

import jax
import jax.numpy as jnp


@jax.jit
def per_query_error(c):
    return c * 2


@jax.jit
def step(s):
    return s + 1


def bench(kind, c, reduction_fn, n):
    t0 = time.time()
    match kind:
        case "banded":
            pqe = per_query_error(c)
            loss = reduction_fn(pqe) * 2.0
        case "inverse":
            pqe = per_query_error(c, workload=jnp.ones(n))
            loss = reduction_fn(pqe)
        case "dense":
            loss = reduction_fn(c).mean()
    loss = float(jnp.sqrt(loss))
    t1 = time.time()
    return loss, t1 - t0


def bench_if(flag, c, reduction_fn):
    t0 = time.time()
    if flag:
        loss = per_query_error(c)
    else:
        loss = reduction_fn(c)
    loss = float(loss)
    return loss, time.time() - t0


def bench_other(c, other):
    t0 = time.time()
    loss = per_query_error(c)  # error: JAX601
    other = float(other)
    return loss, other, time.time() - t0


def rollout(s, n):
    s = step(s)
    t0 = time.time()
    for i in range(n):
        if i % 5 == 0:
            s.save_svg(f"{i:03d}.svg")
        s = step(s)
    return time.time() - t0
