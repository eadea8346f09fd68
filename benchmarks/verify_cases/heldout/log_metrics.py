"""A training step that logs its loss as a Python float from inside jit."""

import jax
import jax.numpy as jnp

history = []


@jax.jit
def step(w, x, y):
    pred = jnp.tanh(x @ w)
    loss = jnp.mean((pred - y) ** 2)
    history.append(float(loss))  # sharp: JAX101
    g = jax.grad(lambda w_: jnp.mean((jnp.tanh(x @ w_) - y) ** 2))(w)
    return w - 0.1 * g


w = jnp.zeros((8, 1))
x = jnp.ones((32, 8))
y = jnp.ones((32, 1))
for _ in range(3):
    w = step(w, x, y)
print(history)
