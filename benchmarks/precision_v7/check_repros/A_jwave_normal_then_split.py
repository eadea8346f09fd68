"""JAX201 on jwave docs/notebooks/harmonic/helmholtz_solver_differentiable.ipynb cell 30 line 7:
cell 26 draws `random.normal(key, shape=(65,))` from `key`, and cell 30 then does
`key, _ = random.split(key)` of that same key and draws `random.normal(key, shape=(65,))`.
Check whether the split's keys are made of the very bits the first normal used."""

import jax
from jax import random

key = random.PRNGKey(12)
key, _ = random.split(key)  # cell 26 line 1
first_bits = random.bits(key, shape=(130,), dtype="uint32")  # what normal(key, (65,)) hashes
new_key, _ = random.split(key)  # cell 30 line 7
kd = (
    jax.random.key_data(new_key)
    if jax.dtypes.issubdtype(new_key.dtype, jax.dtypes.prng_key)
    else new_key
)
print("new key words:", kd.tolist())
print("overlap with the first draw's bits:", sorted(set(kd.tolist()) & set(first_bits.tolist())))
print("jax_threefry_partitionable:", jax.config.jax_threefry_partitionable)
