"""JAX701 on corpus v6 (paxml checkpoints_test.py:96, alphamissense modules_missense.py:79):
what does an int64 request give without x64?"""

import warnings

import jax
import jax.numpy as jnp

warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as w:
    a = jnp.asarray([0], jnp.int64)
    b = jax.lax.broadcasted_iota(jnp.int64, (2, 3), 1)
print(a.dtype, b.dtype, [str(x.message)[:80] for x in w])
