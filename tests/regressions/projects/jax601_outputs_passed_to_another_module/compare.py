"""ShotaMiyazaki94/microjax example/compare-vbbl/compare_binary_uniform.py:86-90, reduced (v17
rows, tuning material, JAX601 x2): both outputs of the jitted call go into a function of
another module, whose result is blocked on; what happens to them there cannot be followed
here (it may wait for them), so the region is not reported, for either output
(`pending._escape` takes a call's other outputs with the one passed on). The near miss blocks
only on a later, unrelated value."""

import time

import jax.numpy as jnp
from lens.point_source import _mag_hexadecapole, images


def compare(w, rho):
    start = time.time()
    z, z_mask = images(w)
    mu_multi, _ = _mag_hexadecapole(z, z_mask, rho)
    mu_multi.block_until_ready()
    return time.time() - start


def dispatch_only(w):
    start = time.time()
    z, z_mask = images(w)  # error: JAX601
    ones = jnp.ones(3)
    ones.block_until_ready()
    return time.time() - start, z, z_mask
