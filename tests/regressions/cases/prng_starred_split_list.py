"""Precision v3, tuning half (ott docs/tutorials/misc/000_tracking_progress.ipynb cell 24,
quadratic/000_gromov_wasserstein.ipynb cell 7): `key, *subkeys = split(key, 4)` binds
`subkeys` to a Python list of keys; indexing or slicing that list is fine (JAX206 took it for
indexing a typed key). Indexing one of the keys is still reported."""

import jax

key, *subkeys = jax.random.split(jax.random.key(0), 4)
spiral = jax.random.normal(subkeys[0], (3,))
rest = subkeys[1:]
roll = jax.random.uniform(rest[1], (2,))

other, sub = jax.random.split(jax.random.key(1))
bad = sub[0]  # error: JAX206
