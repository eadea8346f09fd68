"""JAX201: a loop over `range(seeds)` where the one assignment reaching `seeds` is a literal
(`seeds = 1000`, the name bound again elsewhere, so it is no module constant) takes a step,
so a key it rebinds is fresh after it, not the one consumed before it (analysis/constants.py
`reaching_int`, asked by the key flow's loops only: a removed path only removes pairs).

Reduced from ktolnos/Model_Generalization_Code_supplement enemy_walk_vqvae.ipynb cells 12,
15, 18 and 20 (v33 check set, JAX201 FP, tuning material): a notebook draws test inputs from
`key`, then two cells each set `seeds = 1000` and rebind `key = PRNGKey(seed)` in a loop over
`range(seeds)`, and a later cell splits `key`. The near misses: a count that may be zero, and
a key the loop consumes before the split.
"""

import jax


def cells(key):
    x = jax.random.normal(key, (16, 10))
    seeds = 1000
    for seed in range(seeds):
        key = jax.random.PRNGKey(seed)
    seeds = 5
    return x, jax.random.split(key, seeds)


def cells_maybe_empty(key, flag):
    x = jax.random.normal(key, (16, 10))
    seeds = 0 if flag else 1000
    for seed in range(seeds):
        key = jax.random.PRNGKey(seed)
    return x, jax.random.split(key)  # error: JAX201


def cells_drawing(key):
    seeds = 1000
    for seed in range(seeds):
        key = jax.random.PRNGKey(seed)
        print(jax.random.choice(key, 5))
    return jax.random.split(key)  # error: JAX201
