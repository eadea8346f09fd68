"""An MLP with dropout trained with one PRNG key used for every layer."""

import jax
import jax.numpy as jnp


def init(key, sizes):
    keys = jax.random.split(key, len(sizes) - 1)
    return [jax.random.normal(k, (a, b)) * 0.1 for k, a, b in zip(keys, sizes[:-1], sizes[1:])]


def forward(params, x, key, rate=0.5):
    h = x
    for w in params[:-1]:
        h = jax.nn.relu(h @ w)
        mask = jax.random.bernoulli(key, 1 - rate, h.shape)  # sharp: JAX201
        h = jnp.where(mask, h / (1 - rate), 0.0)
    return h @ params[-1]


def loss_fn(params, x, y, key):
    return jnp.mean((forward(params, x, key) - y) ** 2)


@jax.jit
def update(params, x, y, key):
    grads = jax.grad(loss_fn)(params, x, y, key)
    return [w - 0.01 * g for w, g in zip(params, grads)]


if __name__ == "__main__":
    key = jax.random.key(0)
    params = init(key, [4, 16, 16, 1])
    x = jnp.ones((8, 4))
    y = jnp.zeros((8, 1))
    for _ in range(3):
        key, sub = jax.random.split(key)  # sharp: JAX201
        params = update(params, x, y, sub)
