"""Two equal index draws from one key, each used only to index a different array, shuffle the
two arrays in unison on purpose (data and masks stay paired: v19 rows, tuning material,
modded-nanogpt-jax path_graphs.ipynb cells 6-7, `data[permutation(k, arange(n))]` and
`masks[permutation(k, arange(n))]`, JAX201 x2; `KeyFlow._index_two_arrays`). The twins: the
same array indexed twice, and a permutation also used as data."""

import jax
import jax.numpy as jnp


def shuffle_pair(key, data, masks, n):
    data_shuffled = data[jax.random.permutation(key, jnp.arange(n))]
    masks_shuffled = masks[jax.random.permutation(key, jnp.arange(n))]
    return data_shuffled, masks_shuffled


def shuffle_named(key, data, masks, n):
    p = jax.random.permutation(key, n)
    q = jax.random.permutation(key, n)
    return data[p], masks[q]


def shuffle_twice_twin(key, data, n):
    a = data[jax.random.permutation(key, jnp.arange(n))]
    b = data[jax.random.permutation(key, jnp.arange(n))]  # error: JAX201
    return a, b


def permutation_as_data_twin(key, data, masks, n):
    p = jax.random.permutation(key, n)
    q = jax.random.permutation(key, n)  # error: JAX201
    return data[p], masks[q], q.sum()
