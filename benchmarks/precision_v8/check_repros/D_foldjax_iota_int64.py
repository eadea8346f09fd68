"""FoldJAX featurization.py:113: lax.broadcasted_iota(jnp.int64, ...) without x64.
Check the dtype that comes back and whether a warning is raised."""

import warnings

import jax
import jax.numpy as jnp

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    x = jax.lax.broadcasted_iota(jnp.int64, (2, 3), 1)
    y = jax.jit(lambda: jax.lax.broadcasted_iota(jnp.int64, (2, 3), 1))()
print(x.dtype, y.dtype, [str(i.message)[:90] for i in w])
