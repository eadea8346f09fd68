"""init2winit kitchen_sink transform.py:588 and jax3d volume_rendering_test.py:195: explicit float64 requests
without x64 give float32 and a UserWarning (eagerly and under jit)."""

import warnings

import jax
import jax.numpy as jnp

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    a = 1.0 * jnp.ones([], jnp.float64)
    b = jax.jit(lambda: jnp.zeros([], jnp.float64))()
    c = jax.random.uniform(jax.random.PRNGKey(42), (2, 3, 5), dtype=jnp.float64)
print("dtypes", a.dtype, b.dtype, c.dtype, "warnings:", len(w), str(w[0].message)[:90])
