"""JAX110: `np.iscomplexobj(x)`, `np.isrealobj(x)`, `np.isscalar(x)` read the dtype (or the
Python type) of a traced array, never its values: under jit they give a Python bool (checked
with JAX 0.10.2 and 0.12), so an `if` on one is a Python branch chosen at trace time.

Reduced from carnotresearch/cr-sparse src/cr/sparse/_src/geo/thresholding.py:44 (v29 check
set, FP, tuning material now): `if np.iscomplexobj(x):` in `soft_threshold`, which is jitted
(analysis/jax_api.py `STATIC_CALLS`). The marked line is the near miss: `jnp.any(x > tau)`
reads the values.
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnums=(1,))
def soft_threshold(x, tau):
    if np.iscomplexobj(x):
        return jnp.maximum(jnp.abs(x) - tau, 0.0) * jnp.exp(1j * jnp.angle(x))
    if np.isscalar(x) or not np.isrealobj(x):
        return x
    return jnp.maximum(0, x - tau) + jnp.minimum(0, x + tau)


@jax.jit
def clip_if_large(x, tau):
    if jnp.any(x > tau):  # error: JAX110
        return jnp.clip(x, -tau, tau)
    return x
