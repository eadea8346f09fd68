"""v38 memory-rl/memorax `memorax/networks/sequence_models/memax.py:39-43` (JAX120, tuning
material): `batch_size = input_shape[0]` with the shape from `get_input_shape(inputs)` of
another module, used as `jnp.repeat`'s count under jit: a Python int there."""

import jax
import jax.numpy as jnp

from pkg.axes import first_frame, get_input_shape


def initialize_carry(input_shape, width):
    batch_size = input_shape[0]
    return jnp.repeat(jnp.zeros((1, width)), batch_size, axis=0)


@jax.jit
def run(inputs):
    carry = initialize_carry(get_input_shape(inputs), 4)
    return carry.sum() + inputs.sum()


@jax.jit
def run_twin(inputs):
    frame = first_frame(inputs)
    return jnp.repeat(inputs, frame[0, 0], axis=0)  # error: JAX120
