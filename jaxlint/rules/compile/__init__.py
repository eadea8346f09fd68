"""JAX4xx: compilation, recompiles, performance.

One rule per module; the jit model they share (which calls run a jitted function, what
it makes static) is a fact in `analysis/jit_sites.py`, the loop facts in
`analysis/loops.py` and `analysis/hoisting.py`.
"""

from jaxlint.rules.compile.host_data_conversion_in_loop import HostDataConversionInLoop
from jaxlint.rules.compile.jit_constructed_per_call import JitConstructedPerCall
from jaxlint.rules.compile.jit_on_method import JitOnMethod
from jaxlint.rules.compile.jnp_on_python_sequence import JnpOnPythonSequence
from jaxlint.rules.compile.missing_donation import MissingDonation
from jaxlint.rules.compile.shape_varies_per_iteration import ShapeVariesPerIteration
from jaxlint.rules.compile.static_arg_varies import StaticArgVaries
from jaxlint.rules.compile.unhashable_static_arg import UnhashableStaticArg
from jaxlint.rules.compile.unrolled_python_loop_in_traced import UnrolledPythonLoopInTraced

__all__ = [
    "HostDataConversionInLoop",
    "JitConstructedPerCall",
    "JitOnMethod",
    "JnpOnPythonSequence",
    "MissingDonation",
    "ShapeVariesPerIteration",
    "StaticArgVaries",
    "UnhashableStaticArg",
    "UnrolledPythonLoopInTraced",
]
