"""JAX503: a global that `main` sets once from the command line, before it hands the
functions that build jitted runners on as values (`engines = [("scan", make_runner)]`, then
`bench(make)`): nothing can call a maker before that reference is evaluated, so every runner is
built and traced after the write and sees its only value (analysis/setup_calls.py
`_runs_only_from(values=True)` for `set_before_every_call`).

Reduced from DonaldGallianoIII/djinnax benchmarks/bench_head_to_head.py:63-104, 303-346 (v37
check set, FP: JAX503 x7, tuning material). The marked line is a near miss: a maker handed on
before the write may build and trace its runner with the old value.
"""

import argparse

import jax
import jax.numpy as jnp
from jax import lax

UNROLL = 1
SCALE = 1.0


def make_runner(n_steps):
    @jax.jit
    def runner(x):
        return lax.scan(lambda c, _: (c + 1.0, None), x, jnp.arange(n_steps), unroll=UNROLL)[0]

    return runner


def make_scaled(n_steps):
    @jax.jit
    def runner(x):
        return x * SCALE + n_steps  # error: JAX503

    return runner


def bench(make, n_steps):
    return make(n_steps)(jnp.zeros(()))


def main():
    global UNROLL, SCALE
    early = [("scaled", make_scaled)]
    ap = argparse.ArgumentParser()
    ap.add_argument("--unroll", type=int, default=1)
    args = ap.parse_args()
    UNROLL = args.unroll
    SCALE = float(args.unroll)
    engines = [("scan", make_runner)]
    for _, make in engines + early:
        print(bench(make, 8))


if __name__ == "__main__":
    main()
