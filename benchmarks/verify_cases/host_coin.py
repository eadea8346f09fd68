import random

import jax
import jax.numpy as jnp


@jax.jit
def noisy(x: jax.Array):
    if random.random() > 0.5:  # sharp: JAX204
        return x + 1.0
    return x - 1.0


if __name__ == "__main__":
    noisy(jnp.ones(4))
