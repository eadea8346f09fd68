"""The caller: `n_cols` is a Python int, the `if` and the slice bound static. The twin:
element 1 of `scaled_twice`, delegated to `scaled`, is an array traced under the jit."""

import jax

from pkg.padding import pad_last_axis_to, scaled_twice


def backsolve(Z):
    Z_pad, n_cols = pad_last_axis_to(Z, 4)
    out = Z_pad * 2.0
    if int(Z_pad.shape[-1]) != n_cols:
        return out[:, :n_cols]
    return out


def total(Z):
    Z2, s = scaled_twice(Z)
    if s > 0:  # error: JAX110
        return Z2
    return -Z2


solve = jax.jit(backsolve)
total_jit = jax.jit(total)
