"""Does split(k, 1)[0] equal split(k, n)[0]? (jax_learning sample_key pattern)."""

import jax
import jax.random as jr

k = jr.PRNGKey(0)
a = jr.split(k, num=1)[0]
b = jr.split(k, num=8)
print("partitionable:", jax.config.jax_threefry_partitionable)
print(
    "split1[0] == split8[0]:",
    bool((jr.key_data(a) == jr.key_data(b[0])).all())
    if hasattr(jr, "key_data")
    else (a == b[0]).all(),
)
print("split1[0] in split8:", [bool((a == x).all()) for x in b])
