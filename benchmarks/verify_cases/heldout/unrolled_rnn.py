"""A toy RNN unrolled with a Python loop inside jit."""

import jax
import jax.numpy as jnp


@jax.jit
def rnn(h, xs, w):
    for t in range(200):  # sharp: JAX405
        h = jnp.tanh(h @ w + xs[t])
    return h


if __name__ == "__main__":
    h = jnp.zeros(4)
    xs = jnp.ones((200, 4))
    w = jnp.eye(4) * 0.5
    print(rnn(h, xs, w))
