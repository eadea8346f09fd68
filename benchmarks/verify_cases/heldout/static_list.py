"""A layer stack whose sizes are a static argument, passed as a list."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def mlp_apply(x, sizes):
    h = x
    for n in sizes:
        h = jnp.tanh(h[..., :n])
    return h


if __name__ == "__main__":
    x = jnp.ones((2, 16))
    print(mlp_apply(x, [8, 4]))  # sharp: JAX402
