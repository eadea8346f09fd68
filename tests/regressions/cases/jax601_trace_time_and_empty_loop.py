"""Two timed regions that never time a call: the clock reads of a `@jax.jit` function run once,
while JAX traces it, and a region inside `for epoch in range(0):` never runs (v25 rows, tuning
material: a jitted function reading `time.time()` twice, and energy-jax's notebook 04 timed
epoch loop over `range(0)`, JAX601; rules/benchmarking/_timing.py `timed_regions` and
analysis/module_flags.py `_empty_range`). The twin: the same region in a plain function over
a loop that runs, and a function jitted only when a flag says so (`jax.jit(f) if flag else f`:
its eager runs time real work; v24 row UPIX exact_dcc.py:125, a TP)."""

import time

import jax
import jax.numpy as jnp


@jax.jit
def step_with_timer(x):
    t0 = time.time()
    y = jnp.sin(x) * 2
    elapsed = time.time() - t0
    return y, elapsed


def train(x):
    step = jax.jit(lambda v: v * 2)
    step(x).block_until_ready()
    for epoch in range(0):
        t0 = time.perf_counter()
        x = step(x)
        print(epoch, time.perf_counter() - t0)
    return x


def train_twin(x, epochs=3):
    step = jax.jit(lambda v: v * 2)
    step(x).block_until_ready()
    for epoch in range(epochs):
        t0 = time.perf_counter()
        x = step(x)  # error: JAX601
        print(epoch, time.perf_counter() - t0)
    return x


def make_task(use_jit):
    step = jax.jit(lambda u: u * 2)

    def compute(v):
        step(v).block_until_ready()
        t0 = time.time()
        y = step(v)  # error: JAX601
        print(time.time() - t0)
        return y

    return jax.jit(compute) if use_jit else compute
