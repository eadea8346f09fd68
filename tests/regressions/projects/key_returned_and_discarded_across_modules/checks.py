"""The importer of the case: it discards the returned key of `apply_kick` and draws again
from the one `apply_drift` returns."""

import jax
import jax.numpy as jnp
from sim.operators import apply_drift, apply_kick


def check_kick():
    key = jax.random.PRNGKey(0)
    state = jnp.zeros(4)
    for _ in range(3):
        key, subkey = jax.random.split(key)
        state, _ = apply_kick(state, 0.01, subkey)
    return state


def run_drift():
    key = jax.random.PRNGKey(1)
    state, key = apply_drift(jnp.zeros(4), key)
    return state + jax.random.normal(key, (4,))
