"""Stoix sebulba prepare_data (ff_impala.py:240 etc.): does the list length change between calls?

Mimics the rollout loop: the list gets rollout_length (+1 bootstrap on the first rollout)
elements, is passed to a jitted function, then is cut to its last element (line 259).
"""

import jax
import jax.numpy as jnp


@jax.jit
def prepare_data(storage):
    return jax.tree.map(lambda *xs: jnp.stack(xs), *storage)


rollout_length = 4
traj_storage = []
lengths = []
for _ in range(5):
    n = rollout_length + int(len(traj_storage) == 0)
    for _ in range(n):
        traj_storage.append({"obs": jnp.zeros(3), "r": jnp.zeros(())})
    lengths.append(len(traj_storage))
    prepare_data(traj_storage)
    traj_storage = traj_storage[-1:]
print("lengths passed:", lengths, "compiles:", prepare_data._cache_size())
