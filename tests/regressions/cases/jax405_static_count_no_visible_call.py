"""A jitted function whose loop count is a static argument with no default and no call in
its module: every caller is elsewhere (a demo, the tests) and each passes 1, so nothing here
says the loop is long (v21 rows, tuning material: jax-monohull-dynamics
boat_wind_interaction.py:134, `n_wind_equilibrium_steps=1` in every caller, JAX405). The
twin's module calls it with 1000."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=["n_steps"])
def integrate(x, n_steps: int):
    for _ in range(n_steps):
        x = x + 0.1 * jnp.sin(x)
    return x


@partial(jax.jit, static_argnames=["n_steps"])
def integrate_twin(x, n_steps: int):
    for _ in range(n_steps):  # error: JAX405
        x = x + 0.1 * jnp.sin(x)
    return x


def run(x):
    return integrate_twin(x, n_steps=1000)
