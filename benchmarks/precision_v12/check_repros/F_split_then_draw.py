"""arxaqapi/gene.jax cgpax/jax_individual.py:127-131: split(rnd_key, 2) then uniform(rnd_key):
do the uniform bits overlap the split keys' data?"""

import jax
import jax.numpy as jnp

k = jax.random.PRNGKey(3)
ks = jax.random.split(k, 2)
bits = jax.random.bits(k, (8,), dtype=jnp.uint32)
print("split keys:", ks.ravel())
print("bits(k):   ", bits)
print(
    "uniform draws from rnd_key and the split keys come from one key value; overlap:",
    bool(jnp.isin(ks.ravel(), bits).any()),
)
