"""exact_typeI.ipynb cell 21: `rates[start:end] = jitted(...)` with rates = np.empty(...): the
slice assignment copies the JAX result into the NumPy buffer (a host read: it blocks)."""

import jax
import jax.numpy as jnp
import numpy as np

rates = np.empty(4)
rates[0:2] = jax.jit(lambda x: x * 2)(jnp.ones(2))
print(type(rates), rates[:2])
