"""kfac-jax utils/parallel.py:49 (JAX110): `axis_name: str | None = None` of a function wrapped
by `jax.jit(f)`; no caller passes it (the pmap variant binds the string "i" with partial)."""
import functools

import jax
from jax import lax


def in_pmap(axis_name: str | None) -> bool:
    if axis_name is None:
        return False
    axis_names = ("i",)
    if axis_name in axis_names:
        return True
    return False


def pmean_if_pmap(obj, axis_name: str | None):
    return lax.pmean(obj, axis_name) if in_pmap(axis_name) else obj


def sync_and_divide_value(value, counter, axis_name: str | None = None):
    value = jax.tree_util.tree_map(lambda x: x / counter, value)
    return pmean_if_pmap(value, axis_name)


jit_sync_and_divide_value = jax.jit(sync_and_divide_value)
pmap_sync_and_divide_value = jax.pmap(
    functools.partial(sync_and_divide_value, axis_name="i"), axis_name="i"
)
print(jit_sync_and_divide_value(jax.numpy.ones(2), 2.0))
