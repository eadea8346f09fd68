"""JAX501: an in-place update where the code expects the TypeError it raises: a test that JAX
arrays are immutable, or a `try` that falls back to `.at` (analysis/expected_errors.py). The
finding there is noise and its safe rewrite made the test fail with DID NOT RAISE.

From a new user's report (stop 52: `with pytest.raises(TypeError): x[0] = 1.0` and a `try:
x[2] = 1.0 / except TypeError:` demo). The marked lines are near misses: a handler or a
raises-block for another exception does not expect this one.
"""

import unittest

import jax.numpy as jnp
import pytest


def test_arrays_are_immutable():
    x = jnp.zeros(3)
    with pytest.raises(TypeError):
        x[0] = 1.0


def test_wrong_error_expected():
    x = jnp.zeros(3)
    with pytest.raises(ValueError):
        x[0] = 1.0  # error: JAX501


class Immutable(unittest.TestCase):
    def test_set(self):
        x = jnp.zeros(3)
        with self.assertRaises((TypeError, ValueError)):
            x[1] += 2.0


def update(x, i, v):
    try:
        x[i] = v
    except TypeError:
        x = x.at[i].set(v)
    return x


def update_wrong_handler(i, v):
    x = jnp.zeros(3)
    try:
        x[i] = v  # error: JAX501
    except KeyError:
        pass
    return x
