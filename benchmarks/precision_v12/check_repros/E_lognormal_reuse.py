"""hardening_rule.py:64/113: normal(key1, (M,)) then lognormal(key1, (N,)): are the draws related?"""

import jax
import jax.numpy as jnp

key1, key2 = jax.random.split(jax.random.key(42))
z = jax.random.normal(key1, shape=(500,))
ln = jax.random.lognormal(key1, shape=(20,))
print("lognormal == exp(normal[:20]):", bool(jnp.allclose(ln, jnp.exp(z[:20]))))
print(
    "lognormal == exp(normal(key,(20,))):",
    bool(jnp.allclose(ln, jnp.exp(jax.random.normal(key1, (20,))))),
)
