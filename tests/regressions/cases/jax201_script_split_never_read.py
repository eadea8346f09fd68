"""JAX201: a script (or notebook) that splits a key in its top-level code and never reads
the halves draws nothing from that split, so the next use of the key is its first draw. At
module level a name still bound at the end could be read by an importer, but a module that
does its random work when loaded is a program, not a library (a library would dispatch
device work on every import), and a binding made under `if __name__ == "__main__":` never
exists on import (analysis/deadness.py `_dead_after`).

Reduced from carnotresearch/cr-sparse examples/0200_cs/cosamp_step_by_step.py:47-75 (v29
check set, FP, tuning material): `keys = random.split(key, 4)`, never used, then
`gaussian_mtx(key, M, N)`. The marked lines are near misses: a split whose halves a function
of the module reads, and one whose half the script reads itself, are real first uses of the
key; and random numbers nobody reads may still be looked at (a notebook cell's `a` and `b`
drawn from one key are equal), so only unread keys (`split`, `fold_in`) are dead.
"""

import jax.numpy as jnp
from jax import random

key = random.PRNGKey(0)
keys = random.split(key, 4)
Phi = random.normal(key, (8, 16))

key2 = random.PRNGKey(1)
halves = random.split(key2)
noise = random.normal(key2, (3,))  # error: JAX201


def sample():
    return random.uniform(halves[0])


key3 = random.PRNGKey(2)
parts = random.split(key3, 2)
x = random.normal(parts[0], (4,)) + random.normal(key3, (4,))  # error: JAX201

key4 = random.PRNGKey(4)
a = random.normal(key4, (2,))
b = random.normal(key4, (2,))  # error: JAX201

if __name__ == "__main__":
    main_key = random.PRNGKey(3)
    unused = random.split(main_key, 3)
    print(jnp.sum(Phi), random.normal(main_key, (2,)), x, noise, sample())
