"""runlaiagent/GyroJAX gyrojax/collisions/operators.py:20-57 and tests/test_collisions.py,
reduced (v17 rows, tuning material, JAX201): an operator returns the key it drew from, and
every caller, here and in the module that imports it, discards it (`new_state, _ =
apply_kick(...)`), so nothing draws from it again (analysis/result_uses.py: the callers in
this module, and `return_uses` of the importer's summary joined into the `RETURN_USES`
seeds). The near miss: `apply_drift`, discarded here too, but its importer draws from the
key it returns."""

import jax


def apply_kick(state, scale, key):
    noise = jax.random.normal(key, state.shape)
    return state + scale * noise, key


def apply_drift(state, key):
    noise = jax.random.uniform(key, state.shape)
    return state + noise, key  # error: JAX201


def step(state, key):
    key, k_kick, k_drift = jax.random.split(key, 3)
    new_state, _ = apply_kick(state, 0.1, k_kick)
    new_state, _ = apply_drift(new_state, k_drift)
    return new_state, key
