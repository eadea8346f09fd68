"""A branch behind `isinstance(x, np.ndarray)` (or `int`, `float`, ...) never runs on a
tracer, and the `else` of `isinstance(x, jax.Array)` never does either (issue 23). The twin
(`# error:`) converts the same value outside such a guard.
"""

import jax
import jax.numpy as jnp
import numpy as np


def to_jax(x):
    if isinstance(x, np.ndarray):
        return jnp.asarray(np.asarray(x))
    if isinstance(x, (int, float)):
        if x > 0:
            return jnp.asarray(float(x))
    return x


def as_float(x):
    if isinstance(x, jax.Array):
        return x.astype(jnp.float32)
    return float(x)


def shape_of(x):
    # optax utils.check_shapes_equal: a tracer always has .shape, so it never reaches np.asarray
    return x.shape if hasattr(x, "shape") else np.asarray(x).shape


def unguarded(x):
    return np.asarray(x)  # error: JAX101


@jax.jit
def f(x):
    return to_jax(x) * 2 + as_float(x) + unguarded(x) + len(shape_of(x))
