"""What kind of value a name holds follows its latest assignment (issue 13, flow sensitivity).

`mask = NUMPY_CONSTANT; mask = x > 0` makes `x[mask]` a traced boolean mask (a true positive
the "bound once" reading missed); `mask = x > 0; mask = jnp.argmax(x)` makes it an integer
index (fine under jit); a mask on only one path is not known to be one. `n = int(n)` of a
static argument and `v = jnp.asarray(v) + x` rebind the kind the same way.
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def rebound_mask(x):
    mask = np.array([True, False, True, False])
    mask = x > 0
    return jnp.sum(x[mask])  # error: JAX130


@jax.jit
def mask_then_index(x):
    mask = x > 0
    mask = jnp.argmax(x)
    return x[mask]


@jax.jit
def mask_on_one_path(x, flag: bool):
    mask = x > 0
    if flag:
        mask = jnp.argmax(x)
    return x[mask]


@partial(jax.jit, static_argnames="n")
def latest(x, n):
    n = int(n)
    k = x.shape[0]
    for i in range(n):
        x = x + i
    v = np.arange(4)
    v = jnp.asarray(v) + x
    return x[:k], np.asarray(v)  # error: JAX101
