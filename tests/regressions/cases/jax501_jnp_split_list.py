"""JAX501: `jnp.split` / `jnp.array_split` return a Python list of arrays, not an array.

Reduced from google/jaxopt tests/scipy_wrappers_test.py:59/60 (`pytree = jnp.split(array, idx)`
then `pytree[0] = pytree[0].reshape(...)`): assigning into the list is fine. The marked lines
are the true positives kept next to the near miss: the parts themselves are JAX arrays.
"""

import jax.numpy as jnp


def do_pytree(array, split_indices, reshape_shape):
    pytree = jnp.split(array, split_indices)
    pytree[0] = pytree[0].reshape(reshape_shape)
    pytree[-1] = {"-1": pytree[-1]}
    halves = jnp.array_split(array, 3)
    halves[1] = None
    return pytree, halves


def parts_are_arrays(array):
    first, second = jnp.split(array, 2)
    first[0] = 1.0  # error: JAX501
    _, *rest = jnp.split(array, 3)
    rest[0] = None  # a starred target is a list too
    return first, second
