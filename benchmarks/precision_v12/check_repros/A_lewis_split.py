"""confirm/lewislib/lewis.py:219-231 with :427-441 and :504-518.

_pr_best_pps_1_table(key): uniform(key), k1 = split(key)[1], unifs_sig2 = uniform(k1, (n,)),
k2 = split(k1)[1], normals = normal(k2, ...).
build_tables then does `_, key = split(key)` (= k1 again) and _pps_2_table(k1): uniform(k1, ...),
k2' = split(k1)[1] (= k2), unifs_sig2' = uniform(k2, (n,)), ...
So the two tables draw from the same keys k1 and k2."""

import jax
import jax.numpy as jnp

n, a, arms = 100, 100, 4
key = jax.random.PRNGKey(0)
# inside _pr_best_pps_1_table(key)
_, k1 = jax.random.split(key)
unifs_sig2 = jax.random.uniform(k1, (n,))
_, k2 = jax.random.split(k1)
# build_tables :229
_, kb = jax.random.split(key)
print("key passed to _pps_2_table == k1 used by pr_best unifs_sig2:", bool(jnp.all(kb == k1)))
unifs_pps2 = jax.random.uniform(kb, (n, a, arms))
_, k2b = jax.random.split(kb)
print("pps_2 second key == pr_best normals key k2:", bool(jnp.all(k2b == k2)))
print(
    "pps_2 unifs_sig2 == pr_best... uses k2 (pr_best normals key); equal uniform draws with the same shape:",
    bool(jnp.all(jax.random.uniform(k2b, (n,)) == jax.random.uniform(k2, (n,)))),
)
# same key, different shape: how many values coincide?
flat = unifs_pps2.ravel()
print(
    "pr_best unifs_sig2 values found among pps_2 unifs:",
    int(jnp.isin(unifs_sig2, flat).sum()),
    "of",
    n,
)
