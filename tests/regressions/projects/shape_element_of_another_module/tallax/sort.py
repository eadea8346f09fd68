"""oliverdutton/tallax `tallax/_src/sort.py:515-530` (v15 rows, tuning material: JAX110 x6,
JAX120 x2): the shape a helper of another module returns is a tuple of ints, so `min`,
`if` and slices on it are Python operations under jit. The twin unpacks a traced sum."""

from functools import partial

import jax
import jax.numpy as jnp

from tallax.utils import canonicalize_operand, leaves_and_size


@partial(jax.jit, static_argnames=("k",))
def sort(operand, k=None):
    operands, shape = canonicalize_operand(operand)
    if k is None:
        k = shape[-1]
    block = min(max(8, 16384 // shape[0]), shape[0])
    if k != shape[1]:
        return operands[0][: shape[0], :k]
    return jnp.sort(operands[0], axis=-1)[:block]


@jax.jit
def sort_twin(operand):
    operands, size = leaves_and_size(operand)
    if size > 0:  # error: JAX110
        return operands[0]
    return -operands[0]
