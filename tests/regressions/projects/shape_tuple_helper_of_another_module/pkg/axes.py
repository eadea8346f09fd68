"""A shape helper of another module whose result is a Python tuple: its annotation (`->
tuple`) says nothing either way, and it returns a name bound once to a slice of `.shape`
(`kinds.returns_static` reads the binding). From v38 memory-rl/memorax `memorax/utils/axes.py`
get_input_shape (tuning material).

The twin `first_frame` returns an array, which stays traced in the caller."""

import jax.numpy as jnp


def get_time_axis(inputs, num_feature_axes: int = 1) -> int:
    return inputs.ndim - num_feature_axes - 1


def get_input_shape(inputs, num_feature_axes: int = 1) -> tuple:
    time_axis = get_time_axis(inputs, num_feature_axes)
    input_shape = inputs.shape[:time_axis] + inputs.shape[time_axis + 1 :]
    return input_shape


def first_frame(inputs) -> tuple:
    frame = jnp.take(inputs, 0, axis=1)
    return frame
