"""Does split(k, n)[i] equal fold_in(k, i) (JAX203 claim), and does float() of a vmap tracer fail (JAX101)?"""

import jax
import jax.numpy as jnp
import jax.random as jr

print("partitionable", jax.config.jax_threefry_partitionable)
k = jr.PRNGKey(3)
for n in (2, 3, 5):
    s = jr.split(k, n)
    print(n, [bool((s[i] == jr.fold_in(k, i)).all()) for i in range(n)])
try:
    jax.vmap(lambda h: float(h))(jnp.ones(3))
    print("float under vmap ok")
except Exception as e:
    print("float under vmap fails:", type(e).__name__)
