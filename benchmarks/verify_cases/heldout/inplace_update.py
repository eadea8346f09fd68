"""Momentum buffer updated in place inside a jitted function."""

import jax
import jax.numpy as jnp


@jax.jit
def reset_first(buf, value):
    buf[0] = value  # sharp: JAX501
    return buf


if __name__ == "__main__":
    print(reset_first(jnp.zeros(4), 1.0))
