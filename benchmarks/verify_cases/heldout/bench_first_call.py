"""Timing a jitted function's first call: the compile lands in the measurement."""

import time

import jax
import jax.numpy as jnp


@jax.jit
def gelu_mlp(x, w1, w2):
    return jax.nn.gelu(x @ w1) @ w2


def main():
    x = jnp.ones((256, 256))
    w1 = jnp.ones((256, 1024)) * 0.01
    w2 = jnp.ones((1024, 256)) * 0.01
    t0 = time.perf_counter()
    out = gelu_mlp(x, w1, w2).block_until_ready()  # sharp: JAX602
    print("took", time.perf_counter() - t0)
    return out


if __name__ == "__main__":
    main()
