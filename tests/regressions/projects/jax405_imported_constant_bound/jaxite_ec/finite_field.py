"""Reduced from google/jaxite jaxite_ec/finite_field.py:45-74 (JAX405 false positive): the
bound's default is another module's constant, 24 iterations, under the threshold of 32. The
package is imported by the name the build gives it (`jaxite.jaxite_ec`), as in the original.
The near miss: a default of 48 (`util.U8_CHUNK_NUM`) is over the threshold and still fires."""

import functools

import jax
import jax.numpy as jnp
from jaxite.jaxite_ec import util


@functools.partial(jax.jit, static_argnames="iter_num")
def carry_add(value_a, value_b, iter_num=util.U16_CHUNK_NUM):
    value = value_a + value_b
    for _ in range(iter_num):
        value = jnp.roll(value, 1) + (value >> 16)
    return value


@functools.partial(jax.jit, static_argnames="iter_num")
def carry_add_u8(value_a, value_b, iter_num=util.U8_CHUNK_NUM):
    value = value_a + value_b
    for _ in range(iter_num):  # error: JAX405
        value = jnp.roll(value, 1) + (value >> 8)
    return value
