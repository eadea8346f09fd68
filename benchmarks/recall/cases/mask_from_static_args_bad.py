# source: https://github.com/jax-ml/jax/issues/4471
# family: shapes
# expect: JAX130
# check: error:NonConcreteBooleanIndexError
# A boolean mask built inside the jitted function (from its static arguments) and used to
# index: since omnistaging (jax 0.2.0) the mask is a tracer, so `x[mask]` fails.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def create_mask_inside_jitted_function(x, y):
    mask = jnp.arange(x.shape[0]) < y
    return x[mask].sum()


if __name__ == "__main__":
    print(create_mask_inside_jitted_function(jnp.arange(5.0), 3))
