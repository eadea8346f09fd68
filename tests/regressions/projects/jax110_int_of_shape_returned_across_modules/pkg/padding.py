"""A helper that returns the padded array and the original width as a Python int (v38
candidate jackmcarthur/lorrax `src/runtime/padding.py:193-199`, read by `src/isdf/core.py:3694`:
JAX110 and JAX120 on `n_cols`, tuning material). `int(...)`, like `len(...)`, is a Python value
whatever it is given (on a tracer it raises instead), so element 1 is static in every return.
"""

import jax.numpy as jnp


def pad_last_axis_to(A, divisor):
    n = int(A.shape[-1])
    n_pad = -(-n // divisor) * divisor
    if n_pad == n:
        return A, n
    return jnp.pad(A, [(0, 0)] * (A.ndim - 1) + [(0, n_pad - n)]), n


def scaled(A, k):
    return A * k, jnp.sum(A)
