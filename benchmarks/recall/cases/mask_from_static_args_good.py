# source: https://github.com/jax-ml/jax/issues/4471
# family: shapes
# The fix: a masked sum with jnp.where keeps the shape static.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def create_mask_inside_jitted_function(x, y):
    mask = jnp.arange(x.shape[0]) < y
    return jnp.where(mask, x, 0).sum()


if __name__ == "__main__":
    print(create_mask_inside_jitted_function(jnp.arange(5.0), 3))
