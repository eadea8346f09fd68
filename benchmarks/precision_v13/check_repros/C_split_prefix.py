"""Does split(k, n)[0] equal split(k)[0] (shared first keys)?"""

import jax

k = jax.random.PRNGKey(0)
a = jax.random.split(k, 4)
b = jax.random.split(k)
print("split4:", a[:2])
print("split2:", b)
print(
    "first equal:",
    bool((jax.random.key_data(a[0]) == jax.random.key_data(b[0])).all())
    if hasattr(a, "dtype")
    else None,
)
print("partitionable:", jax.config.jax_threefry_partitionable)
