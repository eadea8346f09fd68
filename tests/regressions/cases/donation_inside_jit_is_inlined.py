"""JAX506: a donating jitted call deletes its donated argument only when it is dispatched.
Called inside a `@jax.jit` function it is inlined into the outer program, `donate_argnums`
is ignored and the argument (a tracer) stays readable: checked on JAX 0.12.1.

Reduced from v41 (read after its measurement, tuning material): piyush-ppradhan/BoltzmannSim
`src/base.py:939-958` (`collision`, jitted with `donate_argnums=(1,)`, called in the `@jit`
`step`, whose input is read again after), `src/multiphase.py:540-618`. The twin: the same
call dispatched from Python, where the read raises `RuntimeError: Array has been deleted`.
"""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=(1,))
def collision(params, f):
    return f * params


@jax.jit
def step(params, f):
    g = collision(params, f)
    return g + f  # `f` is a tracer here: nothing was donated


def run(params, f):
    g = collision(params, f)
    return g + f  # error: JAX506


print(step(2.0, jnp.ones(3)))
