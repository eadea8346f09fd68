"""berry_imprint.ipynb cell 37: `typeI_sum += s.sum(axis=0)` with typeI_sum a NumPy array and s a
JAX array: NumPy defers to the JAX operand, so the name is rebound to a JAX array (no host read,
nothing synchronised). Prints the resulting type."""

import jax.numpy as jnp
import numpy as np

a = np.zeros(3, dtype=np.uint32)
s = jnp.ones((2, 3), dtype=jnp.uint32)
a += s.sum(axis=0)
print(type(a), a)
b = np.zeros((3,))
b += jnp.ones((2, 3)).sum(axis=0)
print(type(b), b)
