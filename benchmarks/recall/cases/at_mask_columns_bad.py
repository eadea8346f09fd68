# source: https://github.com/jax-ml/jax/issues/21994
# family: shapes
# expect: JAX130
# check: error:NonConcreteBooleanIndexError
# `.at[...]` with a boolean mask (here a column mask computed from the first row) inside
# jax.jit: the number of selected columns is not static.
import jax
import jax.numpy as jnp


def f(x):
    return x.at[:4, jnp.mod(x[0], 2) == 0].set(0)


if __name__ == "__main__":
    x = jnp.reshape(jnp.arange(100), shape=(10, 10))
    print(jax.jit(f)(x))
