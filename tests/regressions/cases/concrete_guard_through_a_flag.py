"""A flag assigned once from a concreteness test proves what the test does: `cacheable =
jax.core.is_concrete(a) and jax.core.is_concrete(b)` ... `if cacheable:` runs its body only
on concrete `a` and `b`, so a host conversion there (`np.ravel(a)` for a cache key) never
sees a tracer (analysis/flow/concrete_guards.py).

Reduced from adematti/jax-power jaxpower/cov3.py:612-620 (v20 check set, FP x2, tuning
material): the traced (vmap) case takes the `else` branch and recomputes uncached. The marked
lines are near misses: the conversion in the `else` arm gets the tracer, and a flag computed
from something else (`use_cache = len(edges) > 2`) proves nothing.
"""

import jax
import jax.numpy as jnp
import numpy as np

_CACHE = {}


def block(edges, ell):
    cacheable = jax.core.is_concrete(edges) and ell >= 0  # error: JAX806
    if cacheable:
        key = (tuple(np.ravel(edges)), ell)
        if key not in _CACHE:
            _CACHE[key] = jnp.sum(edges) * ell
        return _CACHE[key]
    return np.asarray(edges).sum() * ell  # error: JAX101


def uncached(edges, ell):
    use_cache = len(edges) > 2
    if use_cache:
        return tuple(np.ravel(edges))  # error: JAX101
    return jnp.sum(edges) * ell


batched = jax.vmap(block, in_axes=(0, None))
batched_uncached = jax.vmap(uncached, in_axes=(0, None))
