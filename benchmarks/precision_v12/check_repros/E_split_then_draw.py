"""neural_GSM.py:113-114/279: key split into key1..key3, then normal(key, ...) on the parent:
do the parent's bits overlap the children's key data?"""

import jax
import jax.numpy as jnp

key = jax.random.PRNGKey(42)
kids = jax.random.split(key, num=3)
bits = jax.random.bits(key, shape=(12,), dtype=jnp.uint32)
print("children key data:", kids.ravel().tolist())
print("parent bits      :", bits.tolist())
print("overlap:", sorted(set(kids.ravel().tolist()) & set(bits.tolist())))
print("threefry_partitionable:", jax.config.jax_threefry_partitionable)
