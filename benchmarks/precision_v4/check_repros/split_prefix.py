"""distreqx 03_normalizing_flow cells 8/12: do split(key, 3) and split(key, 2000) share keys?"""

import jax

key = jax.random.key(0)
a = jax.random.key_data(jax.random.split(key, 3))
b = jax.random.key_data(jax.random.split(key, 2000))
print("split(k,3) == split(k,2000)[:3]:", bool((a == b[:3]).all()))
print("any of split(k,3) among split(k,2000):", bool((a[:, None, :] == b[None]).all(-1).any()))
print(jax.config.jax_threefry_partitionable)
