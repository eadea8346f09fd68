"""Rows 10-11 (jimma2-del/learning-rl-jax core/envs/base.py:136-150).

Space.sample draws uniform, exponential and normal from the same leaf key, but keeps
each draw only at disjoint positions (jnp.where on bounded / half-unbounded /
unbounded masks). This checks (a) the three draws are elementwise functions of the same
bits (so the claim "consumed twice" is literally true), and (b) the kept elements come
from different indices, hence different bits.
"""

import jax
import jax.numpy as jnp

key = jax.random.key(0)
shape = (6,)
u = jax.random.uniform(key, shape)
e = jax.random.exponential(key, shape)
n = jax.random.normal(key, shape)
print("exp == -log1p(-u):", bool(jnp.allclose(e, -jnp.log1p(-u), rtol=1e-5)))
u2 = jax.random.uniform(key, shape, minval=-1.0, maxval=1.0)
print("normal is elementwise of same bits (corr of u2,n):", float(jnp.corrcoef(u2, n)[0, 1]))

# disjoint masks as in the source: each position uses exactly one of the draws
low = jnp.array([0.0, -jnp.inf, 0.0, -jnp.inf, 0.0, 1.0])
high = jnp.array([1.0, 0.0, jnp.inf, jnp.inf, 2.0, jnp.inf])
bounded = ~(jnp.isinf(low) | jnp.isinf(high))
half = jnp.isinf(low) ^ jnp.isinf(high)
both = jnp.isinf(low) & jnp.isinf(high)
print("masks disjoint and cover:", bool(jnp.all(bounded.astype(int) + half + both == 1)))
