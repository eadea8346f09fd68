"""genjax-chi tests/generative_functions/test_static_gen_fn.py:102 jnp.int_(1) and
docs/cookbook/active/jax_basics.ipynb cell 39: uniform(..., dtype=jnp.float64), x64 off."""

import warnings

import jax
import jax.numpy as jnp

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    a = jnp.int_(1)
    print("jnp.int_(1):", a.dtype, [str(x.message)[:80] for x in w])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    x = jax.random.uniform(jax.random.key(0), (3,), dtype=jnp.float64)
    print("uniform float64:", x.dtype, [str(x.message)[:80] for x in w])
