import jax.numpy as jnp

OFFSET = jnp.zeros(3, dtype=jnp.float64)  # error: JAX701


def build_target(d):
    return jnp.eye(d, dtype=jnp.float64) + OFFSET
