"""Is `split(key, n)` a prefix of `split(key, m)` for n < m (default partitionable threefry)?

distreqx draws layer keys with `split(key, 3)` and later sample keys with
`split(key, 2000)` (and `split(prng, 2)` then `split(prng, 100_000)` in a test): if the
smaller split is a prefix, the first samples reuse the earlier keys exactly.
"""

import jax
import numpy as np

for make in (jax.random.key, jax.random.PRNGKey):
    k = make(0)
    a = jax.random.key_data(jax.random.split(k, 3))
    b = jax.random.key_data(jax.random.split(k, 2000))
    print(make.__name__, "split(k, 3) == split(k, 2000)[:3]:", np.array_equal(a, b[:3]))
