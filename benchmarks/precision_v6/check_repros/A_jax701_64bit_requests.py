"""JAX701 rows of part A (meliad model_base.py:181, jaxite matrix_utils.py:134,
matrix_utils_test.py:282, jaxite_ckks/rns.py:195, rns_test.py:231): without jax_enable_x64 each
64-bit request gives a 32-bit array (with a UserWarning). Run: JAX_PLATFORMS=cpu python this."""

import warnings

import jax.numpy as jnp

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    a = jnp.int64(1)
    b = jnp.ones((2, 2), jnp.uint32).astype(jnp.uint64)
    c = jnp.array(4294967291, dtype=jnp.uint64)
    d = jnp.array([[1, 2]], dtype=jnp.uint64)
print(a.dtype, b.dtype, c.dtype, d.dtype, len(caught), "warnings")
# the shift in matrix_utils.py:134 by up to 48 bits then loses the high bits
print(jnp.ones((1,), jnp.uint32).astype(jnp.uint64) << jnp.uint32(40))
assert {a.dtype.name, b.dtype.name, c.dtype.name, d.dtype.name} <= {"int32", "uint32"}
