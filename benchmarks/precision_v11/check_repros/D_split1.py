"""Rows 22-23 (infodynamics-jax notebook_08 cells 19/22): `run_chain(key, ...)` splits `key`
with `split(key, 2)` inside (cell 13), then the loop does `key = split(key, 1)[0]`.
Does the next dataset's key equal the first key run_chain drew?"""

import jax

k = jax.random.PRNGKey(42)
print("partitionable:", jax.config.jax_threefry_partitionable)
print(
    "split(k,1)[0] == split(k,2)[0]:",
    bool((jax.random.split(k, 1)[0] == jax.random.split(k, 2)[0]).all()),
)
