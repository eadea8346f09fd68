"""Do two draws from one key with different shapes share their leading (flat) values?

synjax's notebook draws `normal(key, (20, 20))` then `normal(key, (15, 15, 1))`;
mujoco_playground's finger reset draws `uniform(rng1, (2,))` then `uniform(rng1, ())`.
"""

import jax
import numpy as np

k = jax.random.PRNGKey(0)
a = jax.random.normal(k, (20, 20)).ravel()
b = jax.random.normal(k, (15, 15, 1)).ravel()
print("normal (20, 20) and (15, 15, 1) share the first 50 values:", np.allclose(a[:50], b[:50]))
u2 = jax.random.uniform(k, (2,))
u0 = jax.random.uniform(k, ())
print("uniform(k, ()) == uniform(k, (2,))[0]:", bool(u2[0] == u0))
