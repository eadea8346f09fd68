"""The near miss: a module that imports neither the package nor the loader asks for float64
with x64 off."""

import jax.numpy as jnp


def grid(n):
    return jnp.linspace(0.0, 1.0, n, dtype=jnp.float64)  # error: JAX701
