"""JAX120/JAX110: a vmap's `in_axes` held in a name. Bound once (`axes = (0, 0) + (None,)`),
it is read as written: the `None` argument reaches the function unmapped, a Python value
when it is one (a jit's static tuple). Built in branches (`if use_extra: axes = axes + (0,)
else: ...`), which arguments stay unmapped is unknown, like a jit's unresolvable statics:
silent, not "every argument traced".

Reduced from the tuning pool (v38 candidate jackmcarthur/lorrax, never linted by a check
set): `src/psp/run_sternheimer.py:199` and `_make_chi_vmap_over_k` (lines 938-955), a static
`fft_grid` passed through `base_axes`. The twin: a literal `in_axes` that maps the grid.
"""

import functools

import jax
import jax.numpy as jnp


def accumulate(u, g_int, fft_grid):
    nx, ny, nz = fft_grid
    box = jnp.zeros((u.shape[0], nx, ny, nz), u.dtype)
    return box.at[:, g_int[:, 0] % nx, g_int[:, 1] % ny, g_int[:, 2] % nz].set(u).sum()


def per_k(u, g_int, fft_grid_static):
    return accumulate(u, g_int, fft_grid_static)


def make_vmap():
    axes = (0, 0) + (None,)
    return jax.vmap(per_k, in_axes=axes)


def make_vmap_branches(use_extra):
    axes = (0, 0)
    if use_extra:
        axes = axes + (0,)
    else:
        axes = axes + (None,)
    return jax.vmap(per_k, in_axes=axes)


@functools.partial(jax.jit, static_argnames=("fft_grid",))
def chi_at_q(u, g_int, *, fft_grid):
    return make_vmap()(u, g_int, fft_grid) + make_vmap_branches(False)(u, g_int, fft_grid)


def mapped_grid(n, g):
    return jnp.zeros((n, n))  # error: JAX120


def sweep(ns, gs):
    return jax.vmap(mapped_grid, in_axes=(0, 0))(ns, gs)
