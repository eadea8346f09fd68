# source: https://github.com/xyyeh/learning
# family: mutation
# expect: JAX501
# check: error:immutable
# NumPy-style item assignment on a jax array inside a helper.
import jax.numpy as jnp


def set_last(array):
    array[4] = 10
    return array


if __name__ == "__main__":
    print(set_last(jnp.arange(5, dtype=jnp.int32)))
