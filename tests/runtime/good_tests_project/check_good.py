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


def test_own_jit_per_shape():
    # the test's own jitted function, compiled per shape on purpose (chex's tests of
    # `assert_max_traces`): a note, while the same in the library is JAX404
    @jax.jit
    def fn(x):
        return x * 2

    for n in range(1, 6):
        fn(jnp.ones(n))


def test_own_jit_per_call():
    # a jitted function defined inside the test's helper, so a new one per call (chex's
    # test_redefined_traced_function): a note, while the same in the library is JAX401
    def outer(x):
        @jax.jit
        def inner(y):
            return y.sum()

        return inner(2 * x)

    for _ in range(4):
        outer(jnp.ones(3))


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


def test_note_and_finding_on_one_line():
    for _ in range(3):
        lib.traced_both_ways(jnp.ones(3))  # expect: failure
