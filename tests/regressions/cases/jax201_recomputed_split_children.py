"""JAX201: one `split(k)` written twice, a DIFFERENT child taken from each copy, is one split.

Reduced from google/fedjax algorithms/hyp_cluster_test.py:42/73 and core/models_test.py:250
(`uniform(split(rng_0)[1])`, then `uniform(split(split(rng_0)[0])[1])`: the test replays the
library's key sequence). The marked lines are the true positives kept next to the near miss:
the same child taken twice (also after a different one), and the parent used after a split.
"""

import jax

rng_0 = jax.random.PRNGKey(0)
u00 = jax.random.uniform(jax.random.split(rng_0)[1], [])
u01 = jax.random.uniform(jax.random.split(jax.random.split(rng_0)[0])[1], [])

rng_1 = jax.random.PRNGKey(1)
a = jax.random.uniform(jax.random.split(rng_1)[1], [])
b = jax.random.uniform(jax.random.split(rng_1)[0], [])
c = jax.random.uniform(jax.random.split(rng_1)[1], [])  # error: JAX201

rng_2 = jax.random.PRNGKey(2)
d = jax.random.uniform(jax.random.split(rng_2)[0], [])
e = jax.random.uniform(rng_2, [])  # error: JAX201

rng_3 = jax.random.PRNGKey(3)
f = jax.random.uniform(jax.random.split(rng_3)[0], [])
g = jax.random.uniform(jax.random.split(rng_3, 3)[1], [])  # error: JAX201
print(u00, u01, a, b, c, d, e, f, g)
