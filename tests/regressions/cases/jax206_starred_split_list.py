"""JAX206: the starred target of `key, *subkeys = split(key, 4)` is a Python list of keys.

Reduced from ott-jax/ott docs/tutorials/misc/000_tracking_progress.ipynb cell 24 and
quadratic/000_gromov_wasserstein.ipynb cell 7 (`subkeys[0]`, `subkeys[1:]`): indexing or
slicing that list is fine, and so is list arithmetic on it (`[key] + subkeys`). The marked
lines are the true positives kept next to the near miss: indexing one typed key (the plain
target, or an element of the list) raises IndexError, arithmetic on one raises TypeError.
"""

import jax

key, *subkeys = jax.random.split(jax.random.key(0), 4)
spiral = jax.random.normal(subkeys[0], (3,))
rest = subkeys[1:]
roll = jax.random.uniform(rest[1], (2,))
bits = key[0]  # error: JAX206
first = subkeys[0]
half = first[0]  # error: JAX206
keys = [key] + subkeys
twice = subkeys * 2
shifted = subkeys[1] + 1  # error: JAX206
print(spiral, roll, bits, half, len(keys), len(twice), shifted)
