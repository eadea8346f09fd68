"""Precision v3, tuning half (fedjax): two JAX201 false positives and their true twins.

P3, fedjax algorithms/hyp_cluster_test.py:42 and core/models_test.py:250: the same
`split(rng)` written twice with its two DIFFERENT children taken is one split (a test
replaying the library's key sequence); the same child twice is a reuse.
P1, fedjax aggregators/compression.py:310 and walsh_hadamard_test.py:50: the inverse transform
must regenerate the forward transform's random signs from the same key.
"""

import jax
import jax.numpy as jnp

rng_0 = jax.random.PRNGKey(0)
first = jax.random.uniform(jax.random.split(rng_0)[1], [])
second = jax.random.uniform(jax.random.split(jax.random.split(rng_0)[0])[1], [])

rng_1 = jax.random.PRNGKey(1)
a = jax.random.uniform(jax.random.split(rng_1)[1], [])
b = jax.random.uniform(jax.random.split(rng_1)[1], [])  # error: JAX201


def structured_rotation(x, rng):
    return x * jax.random.rademacher(rng, x.shape, dtype=x.dtype)


def inverse_structured_rotation(y, rng):
    return y * jax.random.rademacher(rng, y.shape, dtype=y.dtype)


def compress(x, client_rng):
    rotated = structured_rotation(x, client_rng)
    return inverse_structured_rotation(jnp.round(rotated), client_rng)


def rotate_twice(x, client_rng):
    once = structured_rotation(x, client_rng)
    return structured_rotation(once, client_rng)  # error: JAX201
