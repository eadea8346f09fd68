"""A learning-rate schedule read from a module-level global inside jit."""

import jax
import jax.numpy as jnp

LR = 0.1


@jax.jit
def sgd(w, g):
    return w - LR * g  # sharp: JAX503


def train(w, steps):
    global LR
    for _ in range(steps):
        w = sgd(w, jnp.ones_like(w))
        LR = LR / 2
    return w


if __name__ == "__main__":
    print(train(jnp.zeros(3), 4))
