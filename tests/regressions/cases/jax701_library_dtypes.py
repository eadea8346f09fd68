"""Issue 24 (google-research issue 964, jax issue 652): 64-bit requests that reach JAX
through a library layer's `param_dtype=`/`dtype=` or through NumPy data made with an explicit
float64 dtype, without x64: JAX silently uses float32. Near misses: 32-bit layer dtypes,
NumPy's float64 default (JAX702's, opt-in), a conversion that names its dtype, integer data."""

import equinox as eqx
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np

dense = nn.Dense(3, param_dtype=jnp.float64)  # error: JAX701
data = np.array([1.0e8, 1.0e8 + 1.0], dtype=np.float64)
x = jnp.asarray(data)

dense32 = nn.Dense(3, param_dtype=jnp.float32, dtype=jnp.bfloat16)
linear = eqx.nn.Linear(2, 2, dtype=jnp.float16, key=jax.random.key(0))
grid = jnp.asarray(np.linspace(0.0, 1.0, 5))
named = jnp.asarray(data, dtype=jnp.float32)
ids = jnp.asarray(np.array([1, 2], dtype=np.int32))
