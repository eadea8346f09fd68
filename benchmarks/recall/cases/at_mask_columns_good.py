# source: https://github.com/jax-ml/jax/issues/21994
# family: shapes
# The fix (the issue's own workaround): jnp.where on the rows being updated.
import jax
import jax.numpy as jnp


def f(x):
    return x.at[:4].set(jnp.where(jnp.mod(x[0], 2) == 0, 0, x[:4]))


if __name__ == "__main__":
    x = jnp.reshape(jnp.arange(100), shape=(10, 10))
    print(jax.jit(f)(x))
