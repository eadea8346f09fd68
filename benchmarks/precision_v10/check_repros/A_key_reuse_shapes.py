"""Settle worklist A JAX201 rows: what does normal(KEY, s1) vs normal(KEY, s2) share?"""

import jax
import jax.numpy as jnp

key = jax.random.PRNGKey(1)
train = jax.random.normal(key, (50, 3))
test = jax.random.normal(key, (20, 3))
print("test_helpers: test == train[:20]:", bool(jnp.allclose(test, train[:20])))
print("test_helpers: any shared value:", bool(jnp.isin(test, train).any()))

KEY = jax.random.PRNGKey(0)
x = jax.random.normal(KEY, (2, 16, 32))
ctx_same = jax.random.normal(KEY, (2, 16, 32))
ctx_half = jax.random.normal(KEY, (2, 8, 32))
print("same shape identical:", bool(jnp.array_equal(x, ctx_same)))
print("half shape shared values:", bool(jnp.isin(ctx_half, x).any()))
