"""v12 Jax_cuda_med j_med/old/dtcwt_jax/utils.py:133: `jnp.issubsctype(X.dtype,
jnp.complex128)`, the removed alias of `issubdtype` that older code still calls, asks about a
dtype; nothing is made in complex128, so x64 does not matter there. Near miss: an array made
in complex128 (the module's one JAX701 then points at it)."""

import jax.numpy as jnp


def kind_of(x):
    if jnp.issubsctype(x.dtype, jnp.complex64) or jnp.issubsctype(  # error: JAX807
        x.dtype, jnp.complex128
    ):
        return "complex"
    return "real"


made = jnp.zeros(3, dtype=jnp.complex128)  # error: JAX701
