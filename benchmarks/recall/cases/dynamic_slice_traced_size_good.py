# source: https://github.com/jax-ml/jax/issues/1007
# family: shapes
# The fix: the slice size is a static argument.
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnums=1)
def sum_first_k(a, k):
    return jnp.sum(lax.dynamic_slice(a, (0,), (k,)))


if __name__ == "__main__":
    print(sum_first_k(jnp.arange(3.0), 2))
