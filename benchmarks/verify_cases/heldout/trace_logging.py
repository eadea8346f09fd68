"""A jitted step that counts its calls with a Python side effect."""

import jax
import jax.numpy as jnp

calls = {"n": 0}


@jax.jit
def step(x):
    calls["n"] += 1  # sharp: JAX502
    return x * 2.0


if __name__ == "__main__":
    x = jnp.ones(3)
    for _ in range(5):
        x = step(x)
    print(calls)
