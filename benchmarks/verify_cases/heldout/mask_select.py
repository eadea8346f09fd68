"""Mean of the positive entries of each row, under jit."""

import jax
import jax.numpy as jnp


@jax.jit
def positive_mean(x):
    pos = x[x > 0]  # sharp: JAX130
    return pos.mean()


def run(batches):
    return [positive_mean(b) for b in batches]


if __name__ == "__main__":
    data = jnp.arange(-8.0, 8.0).reshape(4, 4)
    print(run(list(data)))
