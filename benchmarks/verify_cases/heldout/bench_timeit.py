"""Benchmark of a jitted matmul chain with timeit at module level."""

import timeit

import jax
import jax.numpy as jnp


@jax.jit
def chain(a, b):
    for _ in range(4):
        a = jnp.tanh(a @ b)
    return a


a = jnp.ones((512, 512))
b = jnp.ones((512, 512)) * 0.001
chain(a, b).block_until_ready()
seconds = timeit.timeit(lambda: chain(a, b), number=20)  # sharp: JAX601
print(f"{seconds / 20 * 1e3:.2f} ms per call")
