"""A small training loop with several classic sharp bits (what `jaxlint check examples/` finds)."""

import time

import jax
import jax.numpy as jnp
import numpy as np


def init_params(key, sizes):
    params = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        w = jax.random.normal(key, (n_in, n_out)) * 0.1  # same key for every layer
        params.append((w, jnp.zeros(n_out)))
    return params


def loss_fn(params, x, y):
    for w, b in params:
        x = jnp.tanh(x @ w + b)
    err = jnp.mean((x - y) ** 2)
    if err > 100.0:  # Python `if` on a traced value
        err = err / 100.0
    return err


@jax.jit
def train_step(params, x, y, lr):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    print("loss:", loss)  # runs once, at trace time
    new_params = jax.tree_map(lambda p, g: p - lr * g, params, grads)  # removed in JAX 0.6
    return new_params, float(loss)  # host conversion of a tracer


def main():
    key = jax.random.key(0)
    params = init_params(key, [8, 16, 1])
    x = jax.random.normal(key, (32, 8))
    y = np.zeros((32, 1))
    t0 = time.perf_counter()
    params, loss = train_step(params, x, y, 0.1)
    print("step took", time.perf_counter() - t0)  # measures dispatch, not compute
    history = jnp.zeros(10)
    history[0] = loss  # JAX arrays are immutable
    return history


if __name__ == "__main__":
    main()
