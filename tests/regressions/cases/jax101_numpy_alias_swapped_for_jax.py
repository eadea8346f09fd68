"""JAX101: a module that reads `np.__name__` to see which array library `np` is now is written
for a swappable backend: its owner rebinds the module's `np` to `jax.numpy` (gwpopulation's
`set_backend` does `setattr(module, "np", jax.numpy)`), and the JAX code paths only run after
that. `np.abs(z)` there is `jnp.abs(z)`, so `np` is not proven to be NumPy in that module
(analysis/imports.py `ModuleIndex.swappable`: its qualified name is unknown).

Reduced from kokabsc/gwkokab src/gwkokab/poisson_mean/_analytic_spin_prior.py:144-241 (v30
check set, FP x7, tuning material): `if "jax" in np.__name__: spence = jax.vmap(jaxspence)`.
The near miss is a module that never asks what its `np` is: there `np.abs` of a traced value
is a host conversion.
"""

import jax
import numpy as np


def jaxspence(z):
    return jax.lax.cond(np.abs(z) < 0.5, lambda z: z, lambda z: np.log(z - 1), z)


def series(z):
    return np.where(z == 1, 0.0, z)


def li2(z):
    if "jax" in np.__name__:
        spence = jax.vmap(jaxspence)
    else:
        from scipy.special import spence
    z = np.atleast_1d(z)
    return spence(1 - z) + series(z)
