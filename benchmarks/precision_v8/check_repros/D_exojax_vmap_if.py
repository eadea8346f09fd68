"""exojax opacont.py:314 vmaps mieparams_vector_direct_from_pymiescatt, whose
callee mie.auto_rgrid does `if sigmag <= 1.0` (mie.py:283) and np.linspace
(mie.py:303) on the batched value. Check both raise under vmap."""

import jax
import jax.numpy as jnp
import numpy as np


def auto_rgrid_if(rg, sigmag):
    if sigmag <= 1.0:
        raise ValueError("x")
    return rg


def auto_rgrid_linspace(rg, sigmag):
    return np.linspace(rg - jnp.sqrt(sigmag), rg + 1.0, 5)


for fn in (auto_rgrid_if, auto_rgrid_linspace):
    try:
        jax.vmap(fn)(jnp.ones(3), 2.0 * jnp.ones(3))
        print(fn.__name__, "ran")
    except Exception as e:  # noqa: BLE001
        print(fn.__name__, type(e).__name__)
