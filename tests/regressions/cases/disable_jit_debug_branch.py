"""lindermanlab/ssm-jax ssm/inference/laplace_em.py:116-121 (JAX111 x5, precision v9 check
set, read by an untuned reader): the asserts sit under `if jax.config.jax_disable_jit:`,
debugging code that runs only when `jax.disable_jit()` is on, so never inside a jit trace.
That test now marks its arm eager-only (`concrete_guards.jit_disabled`), as `isinstance(x,
np.ndarray)` does. Checked with JAX 0.12: under jit the flag reads False; under
`jax.disable_jit()` the function runs on concrete arrays. The near miss, the opposite arm,
still fires."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def step(x):
    if jax.config.jax_disable_jit:
        assert not np.any(np.isnan(x)), "nans in x"
    if jax.config.jax_disable_jit and x.ndim == 1:
        assert x.sum() > 0
    if not jax.config.jax_disable_jit:
        assert x.sum() > 0  # error: JAX111
    return x * 2


step(jnp.ones(3))
