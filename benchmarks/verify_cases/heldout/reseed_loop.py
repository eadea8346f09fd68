"""Data augmentation that re-creates its key inside the epoch loop."""

import jax
import jax.numpy as jnp


def augment(batch, key):
    noise = jax.random.normal(key, batch.shape) * 0.1
    return batch + noise


def epochs(data, n):
    out = []
    for _ in range(n):
        key = jax.random.PRNGKey(0)  # sharp: JAX202
        out.append(augment(data, key))
    return out


if __name__ == "__main__":
    batches = epochs(jnp.ones((4, 3)), 3)
    print(batches[0] - batches[1])
