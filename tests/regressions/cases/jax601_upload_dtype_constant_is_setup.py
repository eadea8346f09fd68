"""JAX601: an upload of host data the region made, whose dtype is a library constant, is
set-up, not the work a timing measures.

Reduced from 1kaiser/vggt-omega-jax-webgpu scripts/profile_inference.py:52 (v26 check set, FP,
tuning material now), which times loading images with NumPy and then
`jnp.array(np.transpose(x_np, ...), dtype=jnp.bfloat16)`: the dtype `jnp.bfloat16` is a
constant, not an input made before the region (analysis/timing_intent.py
`prepared_in_region`). The marked line is the near miss: a product of two arrays made before
the region is measured work. Left alone: an array constructor from a shape (`jnp.ones(d)`) is
not taken as set-up, since a benchmark of array operations times exactly that (v21 JAX-NSL,
`arr1 = jnp.arange(n)`, a TP).
"""

import time

import jax.numpy as jnp
import numpy as np


def load(paths):
    t0 = time.time()
    x_np = np.stack([np.load(p) for p in paths])
    x = jnp.array(np.transpose(x_np, (0, 2, 1)), dtype=jnp.bfloat16)
    print("data ready", time.time() - t0)
    return x


def product(a, b):
    t0 = time.time()
    c = jnp.dot(a, b)  # error: JAX601
    print("dot", time.time() - t0)
    return c
