"""viperleed-jax dense_quantum_numbers.py:66: LMAX passed through vmap(in_axes=(0, None)) inside
jit(static_argnums=(1,)): is LMAX a tracer in the function body?"""

import jax
import jax.numpy as jnp

DENSE_L = {lmax: jnp.arange((lmax + 1) ** 2) // 1 for lmax in range(5)}


def f(array, LMAX):
    print("LMAX type:", type(LMAX))
    if array.shape[0] != LMAX + 1:
        raise ValueError("bad")
    return jnp.asarray(array)[DENSE_L[LMAX] % (LMAX + 1)]


g = jax.jit(jax.vmap(jax.vmap(f, in_axes=(0, None)), in_axes=(0, None)), static_argnums=(1,))
print(g(jnp.ones((2, 3, 4)), 3).shape)
# eager vmap with a Python int too
print(jax.vmap(f, in_axes=(0, None))(jnp.ones((3, 4)), 3).shape)
