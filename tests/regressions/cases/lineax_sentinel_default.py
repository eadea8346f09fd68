"""lineax/_solve.py:785 (JAX110): `if state == sentinel:` compares an `eqx.filter_jit`
argument with its own default, an `object()` sentinel imported from another module: it asks
whether the argument was given, which is a Python identity question."""

import equinox as eqx

from ._custom_types import sentinel


@eqx.filter_jit
def linear_solve(operator, vector, solver, state=sentinel):
    if state == sentinel:
        state = solver.init(operator)
    return solver.compute(state, vector)
