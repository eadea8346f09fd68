"""JAX101: `np.iterable(k)` only calls `iter(k)` in a `try` (a 1-d tracer iterates, a 0-d one
raises TypeError, which it catches), so it answers a Python bool under jit without reading a
value (analysis/jax_api.py NUMPY_DISPATCHING and STATIC_CALLS; checked under `jax.jit` in
tests/runtime/test_numpy_dispatch.py). Reduced from gszep/squiggle
squiggle/polynomials/chebyshev.py:436 (v35 check set, JAX101 high FP, tuning material after
its reading). The near miss: `np.asarray` of the same argument still converts it."""

import jax
import numpy as np


@jax.jit
def chebint(c, k):
    if not np.iterable(k):
        k = [k]
    return c * len(k)


@jax.jit
def chebint_converted(c, k):
    return c * np.asarray(k).sum()  # error: JAX101
