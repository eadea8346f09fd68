"""xwinxu/bayeSDE `jaxsde/jaxsde/sde_vjp.py:181-199` (v41 check set, JAX201 high, read false):
the forward rule of a `jax.custom_vjp` function returns the key it drew from among its
residuals, and the backward rule draws the same Brownian motion from it again: the adjoint
pass needs the forward's noise, so the second draw is the point
(`differentiation.handed_to_backward`). The near misses: the same key returned as the primal
output of the forward rule (element 0 goes to the function's callers), and the same return
from a function that is not a forward rule."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.custom_vjp, nondiff_argnums=(0,))
def noisy_path(n, key, y0):
    return y0 + jnp.cumsum(jax.random.normal(key, (n,)))


def noisy_path_fwd(n, key, y0):
    ys = y0 + jnp.cumsum(jax.random.normal(key, (n,)))
    return ys, (ys, key)


def noisy_path_bwd(n, res, g):
    ys, key = res
    noise = jax.random.normal(key, (n,))  # the same Brownian increments as the forward
    return jnp.zeros_like(key), jnp.sum(g) + 0.0 * jnp.sum(noise * ys)


noisy_path.defvjp(noisy_path_fwd, noisy_path_bwd)


@partial(jax.custom_vjp, nondiff_argnums=(0,))
def keyed(n, key, y0):
    return key, y0


def keyed_fwd(n, key, y0):
    ys = y0 + jax.random.normal(key, (n,))
    return (key, ys), (ys,)  # error: JAX201


def keyed_bwd(n, res, g):
    return g


keyed.defvjp(keyed_fwd, keyed_bwd)


def not_a_rule(n, key, y0):
    ys = y0 + jax.random.normal(key, (n,))
    return ys, (ys, key)  # error: JAX201
