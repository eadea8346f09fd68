"""JAX-ENT create_dummy_data_with_size: one PRNGKey(0) feeds every draw (test_legacy_loss_adapter.py:96-197).

Checks whether the draws are identical / share values.
"""

import jax
import jax.numpy as jnp

R, T, F = 5, 3, 4
key = jax.random.PRNGKey(0)
heavy = jax.random.uniform(key, (R, F))
acceptor = jax.random.uniform(key, (R, F))
print("heavy == acceptor:", bool(jnp.all(heavy == acceptor)))
logpf = jax.random.normal(key, (R,))
uptake = jax.random.uniform(key, (T, R))
fw = jax.random.uniform(key, (F,))
cons = jax.random.uniform(key, (F, F), minval=0.0, maxval=2.0)
print("threefry_partitionable:", jax.config.jax_threefry_partitionable)
print("heavy flat", heavy.ravel()[:6])
print("uptake flat", uptake.ravel()[:6])
print("fw", fw)
print("cons/2 flat", (cons / 2).ravel()[:6])
print("logpf", logpf)
# normal draws uniform in (-1,1) then erfinv*sqrt2: map back
u_from_normal = (jax.scipy.special.erf(logpf / jnp.sqrt(2.0)) + 1) / 2
print("normal mapped back to uniform", u_from_normal)
