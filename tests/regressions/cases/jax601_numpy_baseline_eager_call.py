"""A NumPy-versus-JAX timing: the plain function is timed on a NumPy array as the baseline,
then its `jax.jit` alias on a device array. The eager call of the undecorated def with host
values runs NumPy and returns finished values: nothing to block (v25 row, tuning material:
BEATPython PythonRobotics/LearningJax/basic/p0.py:18, JAX601; analysis/sync.py
`eager_host_call`). The twins: the jitted alias timed without a block, and the same eager
function called on a device array, whose operations JAX dispatches asynchronously."""

import time

import jax
import numpy as np


def f(x):
    return x.T @ (x - x.mean(axis=0))


def compare():
    x_np = np.ones((800, 800), dtype=np.float32)
    tc = time.time()
    for _ in range(20):
        f(x_np)
    numpy_time = (time.time() - tc) / 20

    x_jax = jax.device_put(x_np)
    f_jit = jax.jit(f)
    f_jit(x_jax).block_until_ready()
    tc = time.time()
    for _ in range(200):
        f_jit(x_jax)  # error: JAX601
    jit_time = (time.time() - tc) / 200

    tc = time.time()
    for _ in range(20):
        f(x_jax)  # error: JAX601
    eager_time = (time.time() - tc) / 20
    return numpy_time, jit_time, eager_time
