"""jaxrl-learning vendor/gymnax minatar/freeway.py:278 `jnp.array(cars, dtype=jnp.int_)` without x64."""

import warnings

import jax
import jax.numpy as jnp

warnings.simplefilter("always")


@jax.jit
def f(x):
    return jnp.array(x, dtype=jnp.int_)


with warnings.catch_warnings(record=True) as w:
    y = f(jnp.zeros((8, 4), jnp.int32))
print(y.dtype, [str(x.message)[:90] for x in w])
