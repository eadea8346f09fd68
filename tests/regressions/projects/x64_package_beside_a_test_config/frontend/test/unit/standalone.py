"""The near miss: a test module beside it that imports nothing that turns x64 on."""

import jax.numpy as jnp


def state():
    return jnp.array([0.0, 1.0], dtype=jnp.float64)  # error: JAX701
