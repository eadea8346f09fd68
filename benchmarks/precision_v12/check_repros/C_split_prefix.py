"""Do split(k, n) and split(k, m) share their first keys (JAX 0.12 default)?

Settles MalthusJAX_old Level_2_Demo cells 12/14/16/19 and lv1_scratchpad_2 cells 7/8:
split(k)[0] vs split(k, 3)[0], split(k, 3)[2] vs split(k)[:2], split(k, 8)[1] vs split(k)[1].
"""

import jax
import jax.numpy as jnp

k = jax.random.PRNGKey(42)
two = jax.random.split(k)
three = jax.random.split(k, 3)
eight = jax.random.split(k, 8)
print("threefry_partitionable:", jax.config.jax_threefry_partitionable)
print("split(k)[0] == split(k,3)[0]:", bool(jnp.all(two[0] == three[0])))
print("split(k)[1] == split(k,8)[1]:", bool(jnp.all(two[1] == eight[1])))
print("split(k,3)[2] in split(k):", bool(jnp.any(jnp.all(two == three[2], axis=1))))
print(
    "split(k)[0] == split(k)[0] (two splits of key10):",
    bool(jnp.all(jax.random.split(k)[0] == two[0])),
)
