"""JAX602: which words name a warm-up (the region times compilation on purpose) and which
name the steady half of a cold/warm pair (tuning pool, v38 candidate jackmcarthur/lorrax):

- `services/distrib_la/src/distrib_la/_collectives.py:121-170` and
  `src/common/collectives.py:1340`: `warm_mesh_cliques` compiles and runs each collective once
  and prints "warmed N cliques ... in X ms": the warm-up's own cost is what it reports;
- `tools/probe_product_precond.py:155-166`: `wall` then `wall_warm`, the same jitted function
  timed cold and then warm on purpose: "warm" there is the steady state, not a warm-up, and
  taking it for a compile timing hid the pair.

The twins: a solver's "warm start" names no warm-up, and a first call timed for a report
with no warm half.
"""

import time

import jax
import jax.numpy as jnp

_WARMED = set()


def warm_mesh_cliques(n, print_fn=print):
    if n in _WARMED:
        return 0.0
    t0 = time.perf_counter()
    f = jax.jit(lambda a: a.sum())
    jax.block_until_ready(f(jnp.zeros(n)))
    dt = time.perf_counter() - t0
    _WARMED.add(n)
    print_fn(f"warmed {n} cliques in {dt * 1e3:.0f} ms")
    return dt


def probe(b, pargs, solve):
    fn = jax.jit(lambda bb, pa: solve(bb, pa))
    t0 = time.time()
    x = fn(b, pargs)
    x.block_until_ready()
    wall = time.time() - t0
    t1 = time.time()
    x = fn(b, pargs)
    x.block_until_ready()
    wall_warm = time.time() - t1
    print(wall, wall_warm)


def warm_start_solve(b, x0):
    solve = jax.jit(lambda a, x: a @ x)
    t0 = time.perf_counter()
    out = solve(b, x0).block_until_ready()  # error: JAX602
    print(f"solve took {time.perf_counter() - t0:.3f}s")
    return out


def report(b, x0):
    solve = jax.jit(lambda a, x: a @ x)
    t0 = time.perf_counter()
    out = solve(b, x0).block_until_ready()  # error: JAX602
    wall = time.perf_counter() - t0
    print(f"solve: {wall:.3f}s")
    return out
