import functools

import jax

from gk.precompute import linear_precompute


@functools.partial(jax.jit, static_argnames=("n_steps",))
def gksolve(df, geometry, params, n_steps=1, pre=None):
    if pre is None:
        pre = linear_precompute(geometry, params)
    return df, pre
