"""A draw whose value only feeds a pure array function whose result is rebound before any
read is dead: it correlates with nothing (v15 rows, tuning material: electronicvisions/jaxsnn
tests/sw/test_event_modules_external_events.py:65-69, `spike_times = jnp.sort(uniform(
data_rng, ...))` overwritten by a draw from a split child, JAX201 x1). The twin reads the
first sorted value before it is rebound."""

import jax
import jax.numpy as jnp


def spikes(rng, n, runtime):
    param_rng, data_rng = jax.random.split(rng)
    spike_times = jnp.sort(jax.random.uniform(data_rng, (1, n), maxval=runtime))
    spike_rng, idx_rng = jax.random.split(data_rng)
    spike_times = jnp.sort(jax.random.uniform(spike_rng, (1, n), maxval=runtime))
    return spike_times, jax.random.randint(idx_rng, (n,), 0, n), param_rng


def spikes_read(rng, n, runtime):
    param_rng, data_rng = jax.random.split(rng)
    spike_times = jnp.sort(jax.random.uniform(data_rng, (1, n), maxval=runtime))
    first = spike_times[0, 0]
    spike_rng, idx_rng = jax.random.split(data_rng)  # error: JAX201
    spike_times = jnp.sort(jax.random.uniform(spike_rng, (1, n), maxval=runtime))
    return spike_times, first, jax.random.randint(idx_rng, (n,), 0, n), param_rng
