"""hash.py:71: jnp.full(capacity, -1, jnp.uint32) with x64 off: does it raise OverflowError?"""

import jax.numpy as jnp

try:
    print(jnp.full(4, -1, jnp.uint32))
except Exception as e:
    print(type(e).__name__, e)
import warnings

import jax

print("x64:", jax.config.jax_enable_x64)
warnings.simplefilter("error")
for f in (
    lambda: jnp.full(4, -1, jnp.uint32),
    lambda: jnp.array(-1, jnp.uint32),
    lambda: jnp.full(4, -1, jnp.uint32).at[0].set(3),
):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
