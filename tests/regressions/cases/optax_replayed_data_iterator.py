"""optax/experimental/_aggregating_test.py:79 (JAX201): the same data generator called twice
with the same key regenerates the same data on purpose (once to build the full dataset, once
to iterate over it). Two different helpers, or different arguments, would still be reuse."""

import jax
import jax.numpy as jnp
import jax.random as jrd


def data_iterator(key):
    inputs = jrd.normal(key, (8, 3))
    for i in range(0, 8, 2):
        yield inputs[i : i + 2]


def loss(p, batch):
    return jnp.sum((batch @ p) ** 2)


def run(params):
    data_key, param_key = jrd.split(jrd.key(0))
    full_data = jnp.concatenate(list(data_iterator(data_key)))
    for batch in data_iterator(data_key):
        params = params - 0.1 * jax.grad(loss)(params, batch)
    return params, full_data
