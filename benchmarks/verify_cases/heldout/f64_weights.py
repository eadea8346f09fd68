"""Initialisation asking for float64 weights without enabling x64."""

import jax.numpy as jnp


def init_weights(n):
    return jnp.zeros((n, n), dtype=jnp.float64)  # sharp: JAX701


if __name__ == "__main__":
    w = init_weights(4)
    print(w.dtype)
