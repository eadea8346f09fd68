"""A helper that only delegates: `pad_last_axis_to` returns `pad_axis_to(...)`, whose element
1 is `int(A.shape[ax])` (tuning pool jackmcarthur/lorrax `src/runtime/padding.py:185-204`,
read by `src/isdf/core.py:3692-3695`: JAX110 and JAX120 on `n_cols`, read false). What the
delegate returns is what the helper returns (`static_elements._returned_tuples`)."""

import jax.numpy as jnp


def pad_axis_to(A, divisor, *, axis=-1):
    ax = int(axis) % int(A.ndim)
    n = int(A.shape[ax])
    n_pad = -(-n // divisor) * divisor
    if n_pad == n:
        return A, n
    widths = [(0, 0)] * A.ndim
    widths[ax] = (0, n_pad - n)
    return jnp.pad(A, widths), n


def pad_last_axis_to(A, divisor):
    return pad_axis_to(A, divisor, axis=-1)


def scaled(A, k):
    return A * k, jnp.sum(A)


def scaled_twice(A):
    return scaled(A, 2.0)
