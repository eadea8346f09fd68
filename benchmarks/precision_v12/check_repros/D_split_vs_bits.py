"""es_tuner.py:114/121/154: does normal(subkey) share randomness with split(subkey, 6)?"""

import jax.numpy as jnp
from jax import random

k = random.PRNGKey(0)
bits = random.bits(k, (6, 2), jnp.uint32)
sp = random.key_data(random.split(k, 6)) if hasattr(random, "key_data") else random.split(k, 6)
print("bits(k,(6,2)):\n", bits)
print("key_data(split(k,6)):\n", sp)
print("identical:", bool((bits == sp).all()))
