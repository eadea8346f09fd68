"""grl2-jax: one key feeding draws of different shapes (nn.py __main__ x/a; per-head sampling)."""

import jax
import jax.numpy as jnp

k = jax.random.PRNGKey(42)
x = jax.random.normal(k, (2, 3, 3))
a = jax.random.normal(k, (2, 3, 2))
print(
    "normal (2,3,3) vs (2,3,2), same key; x[...,:2]==a:",
    bool(jnp.allclose(x[..., :2], a)),
    "flat prefix equal:",
    bool(jnp.allclose(x.ravel()[:12], a.ravel())),
)
# two categorical heads of different sizes, same key (distrax Categorical.sample -> random.categorical)
l1 = jnp.zeros((4, 10))
l2 = jnp.zeros((4, 10))
print(
    "categorical same shape, same key identical:",
    bool((jax.random.categorical(k, l1) == jax.random.categorical(k, l2)).all()),
)
g1 = jax.random.gumbel(k, (4, 10))
g2 = jax.random.gumbel(k, (4, 6))
print(
    "gumbel (4,10) vs (4,6) share values:",
    bool(jnp.isin(g2, g1).any()),
    int(jnp.isin(g2, g1).sum()),
    "of",
    g2.size,
)
