"""Does normal(key) share bits with split(key, 2)[1]? (jax_drb hw2d_random_ic pattern)."""

import jax
import jax.numpy as jnp

key = jax.random.key(0)
bits = jax.random.bits(key, (8,), dtype=jnp.uint32)
sub = jax.random.key_data(jax.random.split(key, 2))
print("bits(key, 8):", bits)
print("key_data(split(key,2)):", sub.ravel())
print("partitionable:", jax.config.jax_threefry_partitionable)
n0 = jax.random.normal(key, (4, 4))
n1 = jax.random.normal(jax.random.split(key, 2)[1], (4, 4))
print("corr n0,n1:", jnp.corrcoef(n0.ravel(), n1.ravel())[0, 1])
