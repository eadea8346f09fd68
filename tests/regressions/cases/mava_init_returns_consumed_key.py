"""Mava mava/systems/sac/anakin/ff_isac.py:183-208 (and rec_iql.py:196-214): `init` splits the
key into the learners' keys and then returns the same key, which the caller splits again:
`split(key)[i] == split(key, n)[i]`, so the caller's eval key equals a learner key. Returning
the fresh half of a split is fine."""

import jax


def init(key, n):
    key, reset_key = jax.random.split(key)
    reset_keys = jax.random.split(reset_key, n)
    first_keys = jax.random.split(key, n)
    return reset_keys, first_keys, key  # error: JAX201


def init_ok(key, n):
    key, reset_key = jax.random.split(key)
    key, learner_key = jax.random.split(key)
    return jax.random.split(reset_key, n), jax.random.split(learner_key, n), key


def main(n):
    reset_keys, first_keys, key = init(jax.random.key(0), n)
    key, eval_key = jax.random.split(key)
    return reset_keys, first_keys, eval_key
