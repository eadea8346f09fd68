"""The caller: both sides of the `if` are Python ints, the slice bound is static. The twin:
element 1 of `scaled` is an array, traced under the jit."""

import jax

from pkg.padding import pad_last_axis_to, scaled


def backsolve(Z):
    Z_pad, n_cols = pad_last_axis_to(Z, 4)
    out = Z_pad * 2.0
    if int(Z_pad.shape[-1]) != n_cols:
        return out[:, :n_cols]
    return out


def total(Z):
    Z2, s = scaled(Z, 2.0)
    if s > 0:  # error: JAX110
        return Z2
    return -Z2


solve = jax.jit(backsolve)
total_jit = jax.jit(total)
