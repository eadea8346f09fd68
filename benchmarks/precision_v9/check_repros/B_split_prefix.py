"""rlopt/ppo_nonstationary.py:162/169: split(rng, n_actor) and split(rng, n_critic) of one key.

Checks whether the two splits share keys (the actor layer i and critic layer i would then get
identical perturbation noise), and that normal(k) and split(k) both draw from one key value.
"""

import jax
import jax.numpy as jnp

rng = jax.random.PRNGKey(0)
a = jax.random.split(rng, 3)
c = jax.random.split(rng, 4)
print("threefry_partitionable:", jax.config.jax_threefry_partitionable)
print("actor keys:", a)
print("critic keys:", c)
print("shared first keys:", [bool(jnp.all(a[i] == c[i])) for i in range(3)])
