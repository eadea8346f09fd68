"""serket transformations notebook: `jr.split(jr.key(0), 4).astype(jnp.float32)` on typed keys."""

import jax.numpy as jnp
import jax.random as jr

try:
    print(jr.split(jr.key(0), 4).astype(jnp.float32))
except Exception as e:  # noqa: BLE001
    print(type(e).__name__, e)
