"""dynamiqs utils/general.py:340-383 (JAX101/110/120): `dims` is built by helpers of another
module of the project (`get_dims` reads an equinox static field, `init_dims` picks a static
argument or `x.shape`); it is a tuple of Python ints, never traced."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from ..qarrays.qarray import QArray, get_dims, init_dims


@partial(jax.jit, static_argnums=(1, 2))
def ptrace(x, keep: int, dims: tuple[int, ...] | None = None):
    xdims = get_dims(x)
    x = x.data if isinstance(x, QArray) else jnp.asarray(x)
    dims = init_dims(xdims, dims, x.shape)
    dims = np.asarray(dims)
    if np.prod(dims) != x.shape[-1]:
        raise ValueError("dims do not match")
    return x.reshape(*dims, *dims)
