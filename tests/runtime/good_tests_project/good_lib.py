"""Code a mature suite tests the way mature suites do: eagerly, with deliberate key reuse."""

import functools

import jax
import jax.numpy as jnp
from jax import lax


def update(x, flag):
    return lax.cond(flag, lambda: x + 1.0, lambda: x - 1.0)


def shapes(x):
    f = functools.partial(jnp.sum, axis=0)
    return jax.eval_shape(f, x)


def sample(key):
    return jax.random.normal(key, (3,))


def jitted_lambda(x):
    return jax.jit(lambda v: v * 2)(x)


def loss(x, scale):
    return jnp.sum(x) * scale


def shapes_user(x):
    return jax.eval_shape(functools.partial(loss, scale=2.0), x)


def reuse_inside(key):
    a = jax.random.normal(key, (3,))
    b = jax.random.uniform(key, (3,))  # a real reuse in the code under test
    return a, b


def _make_inner(k):
    def inner(x):
        return x + k

    return inner


def traced_both_ways(x):
    """New closures from one line each call, traced by `lax.cond` (a note) and by a `jax.jit`
    made per call (JAX401): two events at one line, both reported."""
    y = lax.cond(jnp.sum(x) > 0, _make_inner(1.0), _make_inner(2.0), x)
    return jax.jit(_make_inner(3.0))(y)
