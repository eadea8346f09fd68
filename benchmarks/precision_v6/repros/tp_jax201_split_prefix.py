"""Settles the pax/paxml JAX201 'split twice with different counts' rows (TP).

`jax.random.split(k, n)` and `jax.random.split(k, m)` share their first min(n, m) keys (JAX 0.12,
jax_threefry_partitionable on by default), so `a1_rng = split(rng, popsize)` followed by
`rng, ... = split(rng, 4)` makes the carried `rng` equal to `a1_rng[0]`; draws from one key with
different shapes share a prefix too. And randint(k, (), 0, 1) is 0 for every key (the
in_the_matrix.py:839 row, DEBATABLE: reuse that cannot change the result).
Run: JAX_PLATFORMS=cpu python tp_jax201_split_prefix.py
"""

import jax

k = jax.random.PRNGKey(0)
print(
    "split(k,2) == split(k,4)[:2]:",
    bool((jax.random.split(k, 2) == jax.random.split(k, 4)[:2]).all()),
)
print(
    "split(k,3)[0] == split(k,7)[0]:",
    bool((jax.random.split(k, 3)[0] == jax.random.split(k, 7)[0]).all()),
)
a = jax.random.uniform(k, (4, 2))
b = jax.random.uniform(k, (4,))
print("uniform(k,(4,2)) vs uniform(k,(4,)):", a.ravel()[:4], b)
print(
    "randint maxval=1:",
    {int(jax.random.randint(jax.random.PRNGKey(i), (), 0, 1)) for i in range(20)},
)
