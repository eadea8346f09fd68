"""The same kind of program written correctly: nothing to find, nothing to confirm."""

import jax
import jax.numpy as jnp


def init_params(key, sizes):
    params = []
    keys = jax.random.split(key, len(sizes) - 1)
    for k, n_in, n_out in zip(keys, sizes[:-1], sizes[1:]):
        params.append({"w": jax.random.normal(k, (n_in, n_out)) / jnp.sqrt(n_in)})
    return params


@jax.jit
def loss_fn(params, x, y):
    h = x
    for layer in params:
        h = jnp.tanh(h @ layer["w"])
    return jnp.mean((h - y) ** 2)


@jax.jit
def train_step(params, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads), loss


if __name__ == "__main__":
    params = init_params(jax.random.key(0), [8, 16, 2])
    x = jnp.ones((4, 8))
    y = jnp.zeros((4, 2))
    for _ in range(3):
        params, loss = train_step(params, x, y)
    print(float(loss))
