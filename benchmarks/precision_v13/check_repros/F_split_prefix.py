"""Does split(k, 2) share keys with split(k, 3)? (diego-gonher hmc.py:67/158; fast-RL-jax animate_*.py)."""

import jax
import jax.numpy as jnp

k = jax.random.PRNGKey(42)
a = jax.random.split(k, 3)
b = jax.random.split(k, 2)
print("threefry_partitionable:", jax.config.jax_threefry_partitionable)
print(
    "split(k,3)[0]==split(k,2)[0]:",
    bool(jnp.all(jax.random.key_data(a[0]) == jax.random.key_data(b[0]))),
)
print(
    "split(k,3)[1]==split(k,2)[1]:",
    bool(jnp.all(jax.random.key_data(a[1]) == jax.random.key_data(b[1]))),
)
# hmc.py: theta m drawn from split(key,3)[0] with uniform(n,), references from split(key)[1] uniform((n,2))
m = jax.random.uniform(a[0], (500,))
bb = jax.random.uniform(a[1], (500,))
ref = jax.random.uniform(b[1], (500, 2))
print(
    "ref[:,0]==b draws:",
    bool(jnp.allclose(ref[:, 0], bb)),
    "ref col0 vs m corr:",
    float(jnp.corrcoef(ref[:, 0], m)[0, 1]),
)
# references (split(key)[1], shape (500, 2)) vs b (split(key, 3)[1], shape (500,)): same key value
print("ref flat[:500]==b:", bool(jnp.allclose(ref.reshape(-1)[:500], bb)))
