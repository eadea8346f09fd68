"""A feature hash with a large integer constant under jit."""

import jax
import jax.numpy as jnp


@jax.jit
def hash_ids(ids):
    return (ids * 2654435761) % 1024  # sharp: JAX703


if __name__ == "__main__":
    print(hash_ids(jnp.arange(8)))
