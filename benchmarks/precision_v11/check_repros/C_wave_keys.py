"""Settles JAX201 rows of mikelytaev/wave-propagation-experiments (check set v11, reader C).

1. propagator/nb1.py:25-26: uniform(key,(7,)) and uniform(key,(8,)) from one key share values.
2. dataloader pattern: permutation(key, ...) / randint(key, ...) then (key,) = split(key, 1):
   split(k, 1)[0] == split(k, 2)[0], the key permutation/randint derive internally.
"""

import jax
import jax.numpy as jnp
from jax import random

key = random.PRNGKey(1703)
a = random.uniform(key, shape=(7,), minval=-1, maxval=1)
b = random.uniform(key, shape=(8,), minval=-1, maxval=1)
print("uniform prefix shared:", bool(jnp.allclose(a, b[:7])))

k = random.PRNGKey(12345)
print("split(k,1)[0]==split(k,2)[0]:", bool((random.split(k, 1)[0] == random.split(k, 2)[0]).all()))
print("threefry_partitionable:", jax.config.jax_threefry_partitionable)
