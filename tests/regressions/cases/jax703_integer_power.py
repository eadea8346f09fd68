"""Issue 24 (jax issue 8604): an integer power whose largest element is known from a literal
`jnp.arange` overflows int32 without x64 and wraps silently (`256 ** jnp.arange(1, 5)` ends in
0, so `1 / ...` gives inf; checked on JAX 0.12: `2 ** jnp.arange(32)` ends in -2147483648,
`jnp.arange(100_000) ** 2` in 1409865409). Near misses: powers that fit, a float base."""

import jax.numpy as jnp

scales = 1 / 256 ** jnp.arange(1, 5)  # error: JAX703
bits = 2 ** jnp.arange(32)  # error: JAX703
squares = jnp.arange(100_000) ** 2  # error: JAX703

fits = 256 ** jnp.arange(1, 4)
small = jnp.arange(1000) ** 2
bits31 = 2 ** jnp.arange(31)
floats = 256.0 ** jnp.arange(1, 5)
