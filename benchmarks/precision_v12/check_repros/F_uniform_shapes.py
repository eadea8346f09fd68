"""pipme/JaxGP notebooks + tests/test_svgp.py: uniform(key, (1000,1)) and uniform(key, (20,1))
from one key: are the draws related?"""

import jax

key = jax.random.PRNGKey(10)
a = jax.random.uniform(key, shape=(1000, 1), minval=-5, maxval=5)
b = jax.random.uniform(key, shape=(20, 1))
print((a[:20] + 5) / 10 - b)
print("threefry_partitionable:", jax.config.jax_threefry_partitionable)
