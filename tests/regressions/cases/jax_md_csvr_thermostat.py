"""jax-md jax_md/simulate.py:2037-2087 (the CSVR thermostat): `r1 = normal(key)` and then
`sum_noises(state, key)` draws from `key` again (a helper that consumes its key parameter), and
the consumed `key` is stored as the next state's `rng` with `state.set(rng=key)`, so the next step
starts from a key already used (`split` is unused). Both are true positives; the second was missed."""

import jax.numpy as jnp
from jax import random


def make(dt, tau, kT):
    def sum_noises(state, key):
        dof = state.position.size - 1
        if dof % 2 == 0:
            return 2.0 * random.gamma(key, dof // 2)
        rr = random.normal(key)
        return 2.0 * random.gamma(key, (dof - 1) // 2) + rr * rr  # error: JAX201

    def csvr_update(state):
        key, split = random.split(state.rng)
        r1 = random.normal(key)
        r2 = sum_noises(state, key)  # error: JAX201
        lam = jnp.sqrt(jnp.exp(-dt / tau) + kT * (r1 * r1 + r2))
        return state.set(momentum=state.momentum * lam, rng=key)  # error: JAX201

    def csvr_update_fixed(state):
        key, k1, k2 = random.split(state.rng, 3)
        r1 = random.normal(k1)
        r2 = sum_noises(state, k2)
        lam = jnp.sqrt(jnp.exp(-dt / tau) + kT * (r1 * r1 + r2))
        return state.set(momentum=state.momentum * lam, rng=key)

    return csvr_update, csvr_update_fixed
