"""Branches that only run on concrete values are not traced.

Reduced from jax-md/jax-md jax_md/partition.py:1094 (neighbor-list allocate vs. update: the
`max_occupancy is None` branch only runs eagerly; every traced application binds it through
`partial`), plus concreteness guards (`isinstance(x, jax.core.Tracer)`, `is_concrete`)
that send tracers down another path. Where a traced caller leaves the parameter at None,
or after the guard on a value that is not traced, the finding stays (the `# error:` lines).
"""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


def neighbor_fn(position, max_occupancy=None):
    occupancy = jnp.sum(position > 0)
    if max_occupancy is None:
        max_occupancy = int(occupancy * 1.25)
    return position[:max_occupancy]


def allocate_or_update(position, max_occupancy=None):
    occupancy = jnp.sum(position > 0)
    if max_occupancy is None:
        max_occupancy = int(occupancy * 1.25)  # error: JAX101
    return position[:max_occupancy]


nbrs = neighbor_fn(jnp.arange(8.0))  # eager allocate
update = lax.cond(True, partial(neighbor_fn, max_occupancy=8), lambda x: x[:8], jnp.arange(8.0))
both = lax.cond(True, partial(allocate_or_update, max_occupancy=8), lambda x: x, jnp.ones(8))


@jax.jit
def step(x):
    return allocate_or_update(x)  # max_occupancy is None under this trace


@jax.jit
def guarded(x, cap):
    if not isinstance(x, jax.core.Tracer):
        return int(x.sum())
    if jax.core.is_concrete(cap):  # error: JAX806 (removed in JAX 0.11)
        cap = int(cap)
    if isinstance(cap, jax.core.Tracer):
        return x
    return x[: int(cap)]


@partial(jax.jit, static_argnames="n")
def static_guard(x, n):
    if not isinstance(n, jax.core.Tracer):
        return x[: int(n)]
    return x[: int(x.sum())]  # error: JAX101
