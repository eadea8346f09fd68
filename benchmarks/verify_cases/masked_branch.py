import time

import jax
import jax.numpy as jnp


def loss_fn(params, x, y):
    pred = x @ params
    loss = jnp.mean((pred - y) ** 2)
    if loss > 1.0:  # sharp: JAX110
        loss = jnp.sqrt(loss)
    return loss


grad_fn = jax.jit(jax.grad(loss_fn))


def main():
    params = jnp.ones((4, 1))
    x = jnp.ones((16, 4))
    y = jnp.zeros((16, 1))
    t0 = time.time()
    g = grad_fn(params, x, y)  # sharp: JAX601, JAX602
    print(time.time() - t0)
    return g


if __name__ == "__main__":
    main()
