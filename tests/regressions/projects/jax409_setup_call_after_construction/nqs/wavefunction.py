"""CompPhysics/ComputationalPhysics2 doc/Programs/NQS/HO_ndim_npart_fixed.ipynb, cells 5 and 12,
reduced (v31 check set, FP, tuning material: JAX409 x53 in its notebooks and scripts): a
wave function jits its methods with `self` static and sets the network in a public `build`
that the class never calls; the driver calls it once, in the statement right after building
the object, and never again, so no trace can see the attributes before or after they change
(analysis/construction.py, `ModuleSummary.setup_methods` and `setup_calls`). The near miss:
`Sampler.set_width` is called on a sampler that has already been used, so its store can make
the compiled `draw` stale."""

from functools import partial

import jax
import jax.numpy as jnp


class Wavefunction:
    def __init__(self, ndim, npart):
        self.ndim = ndim
        self.npart = npart

    def build(self, key):
        self.weights = jax.random.normal(key, (self.ndim,))
        self.scale = 1.0 / self.npart
        return self.weights

    @partial(jax.jit, static_argnums=(0,))
    def logpsi(self, params, x):
        return jnp.sum(params * x) * self.scale


class Sampler:
    def __init__(self, width):
        self.width = width

    def set_width(self, width):
        self.width = width

    @partial(jax.jit, static_argnums=(0,))
    def draw(self, key):  # error: JAX409
        return self.width * jax.random.normal(key, (3,))
