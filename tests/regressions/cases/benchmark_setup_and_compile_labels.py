"""Timings that measure what they say (v14 tuning half, 25 JAX601/JAX602 rows):

- a region labelled as compilation or a warm-up ("Time to jit", "compile+run", "Warming
  up ...") measures the first call on purpose: compilation is synchronous, so neither a
  warm-up before it (JAX602) nor a block after it (JAX601) is wanted
  (analysis/timing_intent.py; Object-Informed-Manipulation-MJX `tests/test_cube.py:39`,
  fesom_jax `phase3_grad_memory.py:63`, motep_jax `gil_optimized_wrapper.py:124`);
- a set-up timer whose only unwaited JAX work is on data the region itself made from host
  data (`wet0 = jnp.asarray(mesh.mask); nwet = jnp.sum(wet0)` after reading files) measures
  the host work, not device compute (`pending.prepared_in_region`; fesom_jax's "[setup]
  built in" timers, 12 rows, cosmocnc_jax `profile_hmf.py:95`);
- deriving a key (`rng, sub = jax.random.split(rng)`) is not the work a timing measures.

The twins: an eager operation on an input made before the region, a steady-state timing
after a warm-up (its label names the jitted step, not compilation), and a first call whose
timing is not labelled as compilation.
"""

import time

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def step(x):
    return x * 2


def setup_timer(path):
    t0 = time.time()
    host = np.load(path)
    mask = jnp.asarray(host["mask"])
    nwet = jnp.sum(mask)
    print(f"[setup] built in {time.time() - t0:.1f}s")
    return mask, nwet


def compile_timer(x):
    controller = jax.jit(lambda v: v + 1)
    print("Jitting the controller...")
    st = time.time()
    y = controller(x)
    print(f"Time to jit: {time.time() - st:.3f}s")
    return y


def split_only(rng, xs):
    t0 = time.perf_counter()
    for x in xs:
        rng, sub = jax.random.split(rng)
        np.asarray(step(x))
    return time.perf_counter() - t0, rng


def twin_eager_on_input(x):
    t0 = time.time()
    y = jnp.dot(x, x)  # error: JAX601
    return time.time() - t0, y


def twin_steady_state(x):
    step(x).block_until_ready()
    st = time.time()
    y = step(x)  # error: JAX601
    print(f"jitted step: {time.time() - st:.3f}s")
    return y


def twin_first_call(x):
    controller = jax.jit(lambda v: v + 1)
    st = time.time()
    y = controller(x)  # error: JAX602
    y.block_until_ready()
    print(f"step: {time.time() - st:.3f}s")
    return y
