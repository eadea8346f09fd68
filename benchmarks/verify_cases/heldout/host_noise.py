"""Noise injection with NumPy's global RNG inside a jitted step."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def noisy_step(w, x):
    eps = np.random.normal(size=w.shape).astype(np.float32)  # sharp: JAX204
    return w + 0.01 * eps + 0.0 * jnp.sum(x)


if __name__ == "__main__":
    w = jnp.zeros(4)
    for _ in range(3):
        w = noisy_step(w, jnp.ones(2))
    print(w)
