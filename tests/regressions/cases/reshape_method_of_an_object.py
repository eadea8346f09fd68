"""A `reshape` method of an object of unknown class is not `ndarray.reshape(shape)`: evosax's
`ParameterReshaper.reshape(flat)` maps a flat vector to a parameter pytree with jnp operations
and runs under scan (ucl-dark/pax `runners/runner_evo_scanned.py:504`: JAX120, a false positive
of corpus v6's tuning half; this reduction ran with JAX 0.12: `run` traces and returns the
pytree). The twins: the method of a traced array, and of an array made inside the function,
with a traced shape (TypeError under scan/jit) still fire.
"""

import jax
import jax.numpy as jnp


class ParameterReshaper:
    def reshape(self, x):
        return {"w": x[:2] * 1.0, "b": x[2:]}


def run(state, n, param_reshaper):
    def es_step(carry, _):
        x = carry * 2.0
        return carry, param_reshaper.reshape(x)

    return jax.lax.scan(es_step, state, None, length=n)


@jax.jit
def twin(c):
    return c.reshape(c.astype(int))  # error: JAX120


@jax.jit
def twin_local(n):
    return jnp.arange(12).reshape(n, -1)  # error: JAX120
