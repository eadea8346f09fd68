"""Linear regression with a clipped loss, trained for a few steps on synthetic data."""

import jax
import jax.numpy as jnp
import numpy as np


def predict(w, b, x):
    return x @ w + b


@jax.jit
def loss(params, x, y):
    w, b = params
    err = jnp.mean((predict(w, b, x) - y) ** 2)
    if err > 10.0:  # sharp: JAX110
        err = jnp.sqrt(err)
    return err


grad_loss = jax.jit(jax.grad(loss))


def train(params, x, y, steps=5, lr=0.1):
    for _ in range(steps):
        g = grad_loss(params, x, y)
        params = jax.tree.map(lambda p, d: p - lr * d, params, g)
    return params


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.normal(size=(64, 3)), dtype=jnp.float32)
    y = x @ jnp.array([1.0, -2.0, 0.5]) + 0.3
    params = (jnp.zeros(3), jnp.zeros(()))
    params = train(params, x, y)
    print(loss(params, x, y))
