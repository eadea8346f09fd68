"""Good tests (they pass without the plugin): the plugin may note, never fail them."""

import unittest

import good_lib as lib
import jax
import jax.numpy as jnp
import numpy as np


def test_cond_eager():
    x = jnp.ones(3)
    for i in range(5):
        x = lib.update(x, i % 2 == 0)


def test_eval_shape():
    for _n in range(5):
        lib.shapes(jnp.ones((2, 3)))


def test_same_key_expected():
    key = jax.random.key(0)
    out = lib.sample(key)
    expected = jax.random.normal(key, (3,))
    np.testing.assert_allclose(out, expected)


def test_same_key_via_lib():
    key = jax.random.key(0)
    a = lib.sample(key)
    b = lib.sample(key)
    np.testing.assert_allclose(a, b)


def test_two_jits():
    lib.jitted_lambda(jnp.ones(3))
    lib.jitted_lambda(jnp.ones(3))


def test_three_jits():
    for _ in range(3):
        lib.jitted_lambda(jnp.ones(3))


def test_eval_shape_user():
    for _n in range(5):
        lib.shapes_user(jnp.ones((2, 3)))


class SameKeyCase(unittest.TestCase):
    """absltest/unittest style: the error reaches pytest through the TestCase result."""

    def test_same_key_twice(self):
        key = jax.random.key(1)
        np.testing.assert_allclose(lib.sample(key), lib.sample(key))

    def test_same_key_in_a_subtest(self):
        key = jax.random.key(3)
        out = lib.sample(key)
        with self.subTest("recomputed with the same key"):
            np.testing.assert_allclose(out, jax.random.normal(key, (3,)))


def test_reuse_inside_the_library_still_fails():
    lib.reuse_inside(jax.random.key(2))  # expect: failure
