"""optax/_src/alias_test.py:756 (JAX201): three generator expressions each bind their own
`k` from a fresh `split`; a comprehension's target is a new key every iteration. A key from
outside consumed inside a comprehension, though, is reused on every iteration."""

import jax.random as jrd


def trees(key, shapes):
    key_ws, key_us, key_vec = jrd.split(key, 3)
    dws = tuple(jrd.normal(k, (4, *s)) for k, s in zip(jrd.split(key_ws, len(shapes)), shapes))
    dus = tuple(jrd.normal(k, (4, *s)) for k, s in zip(jrd.split(key_us, len(shapes)), shapes))
    same = [jrd.normal(key_vec, (4,)) for _ in shapes]  # error: JAX201
    return dws, dus, same
