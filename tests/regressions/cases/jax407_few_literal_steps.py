"""Converting a few written-out numbers in a loop of a handful of written-out steps costs
nothing measurable (perch chirp/train_tests/quantizers_test.py:58, a 5-step test loop of
`jnp.array([8.0, 0.0])`); a compile-sized cost still counts from 4 steps. The twins: the same
conversion in a long loop, and host data of unknown size in a short one.
"""

import jax.numpy as jnp
import numpy as np


def expected_ema(dim):
    expected = jnp.array([1.0, 1.0])
    for _ in range(5):
        expected = 0.99 * expected + 0.01 * jnp.array([8.0, 0.0])
    return expected


def long_loop():
    expected = jnp.array([1.0, 1.0])
    for _ in range(1000):
        expected = 0.99 * expected + 0.01 * jnp.array([8.0, 0.0])  # error: JAX407
    return expected


def host_table(table: np.ndarray):
    out = 0.0
    for _ in range(5):
        out = out + jnp.asarray(table)  # error: JAX407
    return out
