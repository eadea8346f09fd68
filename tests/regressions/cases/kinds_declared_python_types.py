"""Declared Python types and defaults no caller overrides are Python values (issue 23; issue
24's JAX120 on `patch=4`). A helper parameter annotated `str | None`, `int`, `tuple[int, ...]`
or an Enum takes no taint from its callers; a jit parameter with a default that no visible
call passes keeps its Python default (JAX fills it in while tracing); the `axis == -1 or ...`
softmax no longer gets the `jnp.logical_or` "safe" fix that broke the next `if not last:`
under jit (tests/test_kinds.py runs it under jit after `--fix`). Twins (`# error:`): the same
default passed by a caller, and a parameter a traced caller passes an array without an
annotation.
"""

import enum

import jax
import jax.numpy as jnp


class Act(enum.Enum):
    RELU = 1
    GELU = 2


def helper(x: jax.Array, name: str | None, n: int, dims: tuple[int, ...], act: Act):
    if name is not None and name == "relu":
        x = jax.nn.relu(x)
    if n > 2:
        x = x * 2
    if len(dims) > 1 and dims[0] == 3:
        x = x + 1
    if act == Act.GELU:
        x = jax.nn.gelu(x)
    return x


def untyped(x, n):
    if n > 2:  # error: JAX110
        x = x * 2
    return x


@jax.jit
def patchify(x, patch=4):
    if patch > 2:
        x = x[::patch]
    return helper(x, x.dtype.name, x.ndim, x.shape, Act.RELU)


@jax.jit
def softmax(x, axis=-1):
    last = axis == -1 or axis == x.ndim - 1
    if not last:
        x = jnp.moveaxis(x, axis, -1)
    return jax.nn.softmax(x)


@jax.jit
def pooled(x, window=2):
    return x[::window]  # error: JAX120


@jax.jit
def scaled(x, y):
    return untyped(x, y.sum())


def run(y):
    return patchify(y), softmax(y), pooled(y, 3), scaled(y, y)
