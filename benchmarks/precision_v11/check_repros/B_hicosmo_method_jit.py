"""hicosmo-jax JAX409 rows: @jit / @partial(jit, static_argnums=(1,)) on a method of a plain class."""

from functools import partial

import jax
import jax.numpy as jnp


class LinearPowerSpectrum:  # linear_power.py:299 pattern (self is argnum 0, not static)
    def __init__(self):
        self.A = 2.0

    @partial(jax.jit, static_argnums=(1,))
    def _compute_sigma8(self, z=0, n_points=1000):
        return self.A * jnp.ones(3) * z

    @jax.jit
    def total(self, params):  # likelihoods.py:594 pattern
        return self.A * params["h"]


for name, call in [
    ("partial(jit, static_argnums=(1,))", lambda o: o._compute_sigma8(0.5)),
    ("@jit", lambda o: o.total({"h": 0.7})),
]:
    try:
        call(LinearPowerSpectrum())
        print(name, "OK")
    except Exception as e:  # noqa: BLE001
        print(name, type(e).__name__, str(e).splitlines()[0][:120])
