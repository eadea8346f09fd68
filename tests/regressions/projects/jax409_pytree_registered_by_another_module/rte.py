"""JAX409: a class that writes its own pytree flatten/unflatten functions (here private,
`_tree_flatten`/`_tree_unflatten`) is registered as a pytree, by its module or by another
one (isojax.py here), so `jax.jit` on its methods takes `self` apart like any pytree: no
TypeError, no identity hashing (analysis/jit_sites.py `defines_flattening`).

Reduced from evan-greenbrg/isofit-jax old/rte.py:254 and old/surface.py:65 (v24 check set,
FP x7, tuning material): `old/isojax.py` calls `tree_util.register_pytree_node(RTEcalc,
RTEcalc._tree_flatten, RTEcalc._tree_unflatten)`. The marked line is a near miss: a plain
class with no flattening of its own still gets the finding.
"""

from functools import partial

import jax
import jax.numpy as jnp


class RTEcalc:
    def __init__(self, coeffs, scale):
        self.coeffs = coeffs
        self.scale = scale

    def _tree_flatten(self):
        return (self.coeffs,), {"scale": self.scale}

    @classmethod
    def _tree_unflatten(cls, aux_data, children):
        return cls(*children, **aux_data)

    @jax.jit
    def radiance(self, x):
        return jnp.dot(self.coeffs, x) * self.scale


class Plain:
    def __init__(self, coeffs):
        self.coeffs = coeffs

    @partial(jax.jit, static_argnums=0)
    def radiance(self, x):  # error: JAX409
        return jnp.dot(self.coeffs, x)

    def update(self, coeffs):
        self.coeffs = coeffs
