"""JAX601: helpers that convert their argument to NumPy wait for it (library facts and
summaries of this module's functions).

Reduced from ethanluoyc/magi magi/agents/sac_ae/agent.py:467-543 (precision v6 check half):
`metrics = utils.to_numpy(metrics)` before `time.time() - start`, where `utils` is
`acme.jax.utils` and `to_numpy` is `jax.tree_util.tree_map(np.asarray, values)`: every metric
is copied to the host, so the region is synced (analysis/sync.py LIBRARY_SYNCS). The same holds
for `jax.tree_map(np.array, x)` written inline and for a helper of this module that maps
`np.asarray` over its parameter. The marked line is the near miss: flax's
`jax_utils.unreplicate` only indexes the first device's copy, which is still pending.
"""

import time

import jax
import jax.numpy as jnp
import numpy as np
from acme.jax import utils
from flax import jax_utils


@jax.jit
def update(params):
    return params * 0.9, jnp.sum(params**2)[None]  # a leading axis, as a pmapped loss


def to_host(values):
    return jax.tree_util.tree_map(np.asarray, values)


params = jnp.ones(3)
update(params)[1].block_until_ready()  # compile once

start = time.time()
params, loss = update(params)
metrics = utils.to_numpy({"loss": loss, "alpha": jnp.exp(loss)})
elapsed = time.time() - start
print(elapsed, metrics)

start = time.time()
params, loss = update(params)
metrics = utils.fetch_devicearray({"loss": loss, "alpha": jnp.exp(loss)})
elapsed = time.time() - start
print(elapsed, metrics)

start = time.time()
params, loss = update(params)
metrics = jax.tree_util.tree_map(np.array, {"loss": loss, "alpha": jnp.exp(loss)})
elapsed = time.time() - start
print(elapsed, metrics)

start = time.time()
params, loss = update(params)
metrics = to_host({"loss": loss, "alpha": jnp.exp(loss)})
elapsed = time.time() - start
print(elapsed, metrics)

start = time.time()
params, loss = update(params)
metrics = jax_utils.unreplicate({"loss": loss, "alpha": jnp.exp(loss)})  # error: JAX601
elapsed = time.time() - start
print(elapsed, metrics)
