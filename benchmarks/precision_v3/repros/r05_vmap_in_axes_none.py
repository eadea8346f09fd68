"""ott tools/k_means.py:271/319 (JAX110/120): a parameter that `jax.vmap` maps with
`in_axes=None` is passed through unchanged (a Python int stays an int)."""
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.vmap, in_axes=[0] + [None] * 2)
def k_means(rng, min_iterations: int = 0, max_iterations: int = 300):
    errors = jnp.full((max_iterations,), -1.0)
    force_scan = min_iterations == max_iterations
    step = 1.0 if force_scan else 2.0
    return errors.sum() * step + jax.random.uniform(rng)


print(k_means(jax.random.split(jax.random.key(0), 3), 0, 10))
