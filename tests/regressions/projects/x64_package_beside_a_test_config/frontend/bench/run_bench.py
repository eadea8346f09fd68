"""A runner configuration below the project root that sets JAX_ENABLE_X64 for the runs under
it: still evidence for the files there once the root is the project's."""

import jax.numpy as jnp


def grid(n):
    return jnp.linspace(0.0, 1.0, n, dtype=jnp.float64)
