"""Does jnp.broadcast_to accept a Python list (nerfies model_utils.py:107)?"""

import jax
import jax.numpy as jnp

z = jnp.ones((4, 8))
try:
    print(jnp.broadcast_to([1e10], z[..., :1].shape).shape)
except TypeError as e:
    print("TypeError:", e)
print(jax.__version__)
