"""A registered pytree whose `tree_flatten` picks its children and its auxiliary data by
field names kept in module constants (`[getattr(self, n) for n in _ARRAY_FIELDS]`): the aux
fields are Python values under jit (v16 rows, tuning material: sambhal-labs/jaxcross
crosscat/packed/state.py:76-149, `jnp.arange(state.max_clusters)`, JAX120 x7). The twin reads
a child field as a size."""

from dataclasses import dataclass

import jax
import jax.numpy as jnp

_ARRAY_FIELDS = ("counts", "n_views")
_STATIC_FIELDS = ("max_clusters", "max_views")


@jax.tree_util.register_pytree_node_class
@dataclass
class State:
    counts: jax.Array
    n_views: jax.Array
    max_clusters: int = 32
    max_views: int = 4

    def tree_flatten(self):
        children = [getattr(self, name) for name in _ARRAY_FIELDS]
        aux_data = tuple(getattr(self, name) for name in _STATIC_FIELDS)
        return children, aux_data

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        kwargs = dict(zip(_ARRAY_FIELDS, children, strict=True))
        kwargs.update(dict(zip(_STATIC_FIELDS, aux_data, strict=True)))
        return cls(**kwargs)


@jax.jit
def cluster_ids(state: State):
    return jnp.arange(state.max_clusters) + state.counts.sum()


@jax.jit
def view_ids(state: State):
    return jnp.arange(state.n_views)  # error: JAX120
