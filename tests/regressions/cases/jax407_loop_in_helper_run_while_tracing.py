"""A private helper whose loop converts a NumPy lookup table with `jnp.asarray`, reached only
from a jitted function through another private helper: the loop runs once per trace and the
conversion becomes a constant of the compiled program, no transfer per step at run time (v21
rows, tuning material: jax-healpy pixelfunc.py:2335/2342, `_handle_face_boundaries` under the
jitted `get_all_neighbours`, JAX407; v19 had the same class; `loops.LoopFacts._traced`). The
helpers get only static values, so they are not traced themselves: only their callers say
when they run. The twin is also called eagerly, where each step converts again."""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

_TABLE = np.array([[0, 1, 2, 3], [4, 5, 6, 7]])


def _offsets(n: int):
    result = jnp.zeros(16)
    for d in range(16):
        new_face = jnp.asarray(_TABLE)[d % 2, n % 4]
        result = result.at[d].set(new_face)
    return result


def _neighbours(n: int):
    return _offsets(n) + 1


@partial(jax.jit, static_argnums=1)
def get_all_neighbours(face, n):
    return face + _neighbours(n)


def _offsets_twin(n: int):
    result = jnp.zeros(16)
    for d in range(16):
        new_face = jnp.asarray(_TABLE)[d % 2, n % 4]  # error: JAX407
        result = result.at[d].set(new_face)
    return result


@partial(jax.jit, static_argnums=1)
def get_all_neighbours_twin(face, n):
    return face + _offsets_twin(n)


def table_eagerly(n):
    return _offsets_twin(n)
