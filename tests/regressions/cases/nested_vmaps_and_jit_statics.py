"""Arguments that nested vmaps leave unmapped, under a jit that makes them static, are
Python values in the innermost function (viperleed-jax dense_quantum_numbers.py:66,
`jax.jit(jax.vmap(jax.vmap(f, in_axes=(0, None)), in_axes=(0, None)), static_argnums=(1,))`;
confirmasaurus odi_constant.ipynb, `jax.jit(jax.vmap(jax.grad(f), in_axes=(0, None, None)),
static_argnums=(2,))`). Each inner transform call was also read as an application of its
own: two vmaps alone, or a vmap of a grad alone, did not know the outer jit's statics. The
twin jits the vmap without marking the argument static: it is a tracer there."""

import jax
import jax.numpy as jnp

TABLE = {size: jnp.arange(size + 1) for size in range(5)}


def expand(array, lmax):
    if array.shape[0] != lmax + 1:
        raise ValueError("array shape does not match lmax")
    return jnp.asarray(array)[TABLE[lmax]]


_expand_2d = jax.vmap(jax.vmap(expand, in_axes=(0, None)), in_axes=(0, None))
expand_2d = jax.jit(_expand_2d, static_argnums=(1,))


def moment(t, q, n):
    p = jax.nn.sigmoid(t)
    xs = jnp.arange(n + 1)
    return jnp.sum(q * xs * p)


moment_grads = jax.jit(jax.vmap(jax.grad(moment), in_axes=(0, None, None)), static_argnums=(2,))


def traced_moment(t, q, n):
    p = jax.nn.sigmoid(t)
    xs = jnp.arange(n + 1)  # error: JAX120
    return jnp.sum(q * xs * p)


traced_moments = jax.jit(jax.vmap(traced_moment, in_axes=(0, None, None)))
