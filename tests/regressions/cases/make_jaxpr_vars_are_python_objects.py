"""`jax.make_jaxpr(f)(x)` gives a ClosedJaxpr: its equations' variables are Python objects, so
`==`, `and`, `assert` and `if` on them are Python bools, also inside a jitted function
(google/aqt `aqt/jax/v2/flax/aqt_flax.py:654-684`: JAX111 and JAX110, false positives of corpus
v6's held-out check half, found after it was read, so not a measurement; this reduction ran
with JAX 0.12: `f` compiles and runs). The twin: an `if` on the traced input still fires.
"""

import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    jaxpr = jax.make_jaxpr(jnp.sin)(x)
    invars = jaxpr.eqns[0].invars
    assert invars[0] == jaxpr.jaxpr.invars[0]
    if invars[0] == jaxpr.jaxpr.invars[0] and len(invars) == 1:
        x = x + 1
    return x


@jax.jit
def twin(x):
    if x.sum() > 0:  # error: JAX110
        x = -x
    return x
