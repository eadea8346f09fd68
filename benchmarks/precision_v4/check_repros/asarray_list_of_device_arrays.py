"""dm_pix augment.py:247: is jnp.asarray(list of jax arrays) a host-to-device transfer?

transfer_guard("disallow") raises on implicit host<->device transfers.
"""

import jax
import jax.numpy as jnp

mesh = list(jnp.meshgrid(*[jnp.arange(s) for s in (8, 8, 1)], indexing="ij"))
mesh[0] += jnp.ones((8, 8, 1))
with jax.transfer_guard("disallow"):
    y = jnp.asarray(mesh)
print("no transfer, shape", y.shape)
try:
    with jax.transfer_guard("disallow"):
        jnp.asarray([[1.0, 2.0], [3.0, 4.0]])
except Exception as e:  # a list of Python floats is a host->device transfer
    print("host list:", type(e).__name__)
