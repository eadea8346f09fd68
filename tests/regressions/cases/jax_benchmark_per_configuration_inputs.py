"""jax/experimental/pallas/ops/gpu/*_mgpu.py `main` (JAX202, 8 findings): a benchmark loop
over problem sizes regenerates one fixed input per configuration with a constant seed; the
draws differ in shape, so nothing repeats by accident. Same-shaped draws would repeat."""

import itertools

import jax
import jax.numpy as jnp


def main():
    for m, n, k in itertools.product((1024, 4096), (1024,), (512,)):
        a = jax.random.uniform(jax.random.key(1), (m, k), jnp.float16, -1, 1)
        k1, k2 = jax.random.split(jax.random.key(42))
        b = jax.random.normal(k1, (k, n)) + jax.random.normal(k2, (k, n))
        noise = jax.random.normal(jax.random.key(0), (8,))  # error: JAX202
        print(a @ b, noise)
