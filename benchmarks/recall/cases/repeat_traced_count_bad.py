# source: https://github.com/data-apis/array-api/pull/690
# family: shapes
# expect: JAX121 JAX120
# check: error:ConcretizationTypeError
# `jnp.repeat(x, x[2])` works eagerly but not under jax.jit: the repeat count, and so the
# output length, comes from the data (the example in the array-API discussion).
import jax
import jax.numpy as jnp


def func(x):
    return jnp.repeat(x, x[2])


if __name__ == "__main__":
    x = jnp.arange(3)
    print(func(x))
    print(jax.jit(func)(x))
