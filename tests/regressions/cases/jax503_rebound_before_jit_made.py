"""A global rebound after eager calls of a function, but before any jitted version of it
exists, is never read stale: a plain call of the def runs it eagerly and reads the global
afresh, so only the statements that start a trace (`setup_calls.trace_sites`: here the
`jax.jit(partial(...))` line) count as runs of the reader.

From the v38 check set (tuning material, read in context): hardikparwana/FORESEE
`notebooks/1_1_gp_basics_refactored.ipynb`: `marginal_likelihood` reads the globals `mu_f`
and `cov_f`; cells 39-47 call it eagerly, cell 50 rebinds both, then jits it (JAX503 x2,
read FP). The twin rebinds the global after the jitted version ran: that one is stale.
"""

import functools

import jax
import jax.numpy as jnp


def zero_mean(x):
    return jnp.zeros_like(x)


mu_f = zero_mean
scale = 1.0


def marginal_likelihood(params, x):
    centred = x - mu_f(x)
    return jnp.sum(centred * params) * scale  # error: JAX503


x = jnp.ones(3)
nll = marginal_likelihood(1.0, x)
nll = marginal_likelihood(2.0, x)

mu_f = zero_mean
mll_loss = jax.jit(functools.partial(marginal_likelihood, 1.0))
loss = mll_loss(x)

scale = 2.0
loss = mll_loss(x)
