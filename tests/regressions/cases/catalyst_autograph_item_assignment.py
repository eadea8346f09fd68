"""catalyst's `@qjit(autograph=True)` rewrites `result[i] = x` on a traced array into
`result = result.at[i].set(x)` (AutoGraph, catalyst/autograph/ag_primitives.py `set_item`):
no TypeError (catalyst frontend/test/pytest/test_autograph.py:2045, v13 JAX501 x6). The twin
is the same function without `autograph=True`: JAX's own immutability applies."""

import jax.numpy as jnp
from catalyst import qjit


@qjit(autograph=True)
def fill(n: int):
    result = jnp.zeros(3)
    for i in range(3):
        result[i] = i * n
    return result


@qjit
def fill_plain(n: int):
    result = jnp.zeros(3)
    for i in range(3):
        result[i] = i * n  # error: JAX501
    return result
