"""odi_constant.ipynb cells 1/5: jax.jit(jax.vmap(jax.grad(f), in_axes=(0, None, None)),
static_argnums=(2,)) keeps `n` a Python int inside f, so jnp.arange(n + 1) is fine."""

import jax
import jax.numpy as jnp
import numpy as np


def C_numericalp(p, q, n):
    print("type of n inside:", type(n))
    xs = jnp.arange(n + 1)
    return jnp.sum(jnp.abs(xs - n * p) ** q)


Cnpg = jax.jit(jax.vmap(jax.grad(C_numericalp), in_axes=(0, None, None)), static_argnums=(2,))
print(Cnpg(np.linspace(0.1, 0.9, 4), 1.2, 10))
