"""serket RandomCutoutND: `jax.vmap(random_cutout_nd, in_axes=(None, 0, None, None, None))`
with `shape` a tuple of Python ints: an argument vmap does not map (in_axes None) reaches the
function as the Python value itself, so `x.reshape(-1, *shape)` works (JAX120 FP)."""

import jax
import jax.numpy as jnp


def f(x, shape, n):
    print("shape seen inside vmap:", type(shape[0]).__name__, type(n).__name__)
    return x.reshape(-1, *shape)[:n].sum() + jnp.zeros(n).sum()


print(jax.vmap(f, in_axes=(0, None, None))(jnp.ones((3, 4, 4)), (2, 2), 2))
