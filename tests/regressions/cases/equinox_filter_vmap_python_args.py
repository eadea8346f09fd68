"""An `eqx.filter_vmap`ed function traces only the array leaves of what it is given: an
`int` passed through stays a Python int (flowjax train/losses.py:105,
`_get_idxs(keys, jnp.arange(batch_size), batch_size, n_contrastive)` with `batch_size: int`
from `x.shape[0]`). The twin passes the size as an array: it is mapped, a tracer.
"""

import equinox as eqx
import jax.numpy as jnp
import jax.random as jr


def contrastive_idxs(key, batch_size: int, n_contrastive: int):
    @eqx.filter_vmap
    def get_idxs(key, idx, batch_size, n_contrastive):
        choices = jnp.delete(jnp.arange(batch_size), idx, assume_unique_indices=True)
        return jr.choice(key, choices, (n_contrastive,), replace=False)

    keys = jr.split(key, batch_size)
    return get_idxs(keys, jnp.arange(batch_size), batch_size, n_contrastive)


def sizes_as_arrays(key, sizes):
    @eqx.filter_vmap
    def get_range(key, size):
        return jnp.arange(size)  # error: JAX120

    keys = jr.split(key, 4)
    return get_range(keys, jnp.asarray(sizes))


@eqx.filter_jit
def loss(key, x):
    return contrastive_idxs(key, x.shape[0], 3)
