"""JAX502: `flat, self.unravel = ravel_pytree(params)` inside a jitted method stores the
unravel *function*, a Python callable built from the tree's structure, not a tracer: it
cannot raise UnexpectedTracerError, and it is the same on every trace of the same structure
(jax_api.TUPLE_RESULTS gives ravel_pytree's parts their kinds; the taint's
`element_levels` hands each unpacked element its own, attribute targets included).

Reduced from CompPhysics/ComputationalPhysics2 doc/Programs/NQS/HO_ndim_npart_fixed.ipynb
(v31 check set, FP x16, tuning material; checked with JAX 0.12 and 0.10.2 by the reader: an
exact round trip). The near miss: the flat array, the other element, is a tracer kept on
`self`.
"""

from functools import partial

import jax
from jax.flatten_util import ravel_pytree


class Wavefunction:
    @partial(jax.jit, static_argnums=(0,))
    def flatten_params(self, parameters):
        flat, self.unravel = ravel_pytree(parameters)
        return flat

    @partial(jax.jit, static_argnums=(0,))
    def keep_flat(self, parameters):
        self.flat, unravel = ravel_pytree(parameters)  # error: JAX502
        return parameters
