"""jax_learning layers.py: `Linear(key=key)` then `key, _ = split(key)`: is the new key
one that Linear already drew from? (equinox Linear splits key into wkey, bkey)."""

import equinox as eqx
import jax.numpy as jnp
import jax.random as jr

key = jr.PRNGKey(0)
lin = eqx.nn.Linear(3, 4, use_bias=False, key=key)
new_key, _ = jr.split(key, num=2)
wkey, _ = jr.split(key, 2)
lim = 1 / jnp.sqrt(3)
w_from_new = jr.uniform(new_key, (4, 3), minval=-lim, maxval=lim)
print("new key == Linear's wkey:", bool((new_key == wkey).all()))
print("Linear weight == uniform(new_key):", bool(jnp.allclose(lin.weight, w_from_new)))
