"""Settles the JAX408 rows (hypernerf model_utils.py:114, perceiver-ar inference.ipynb): does
jnp.broadcast_to accept a Python list in JAX 0.12?  Run: JAX_PLATFORMS=cpu python jax408_broadcast_to_list.py
"""

import jax.numpy as jnp

try:
    print("broadcast_to([1e10], (3, 1)):", jnp.broadcast_to([1e10], (3, 1)).shape)
except TypeError as e:
    print("TypeError:", e)
