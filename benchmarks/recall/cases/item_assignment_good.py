# source: https://github.com/xyyeh/learning
# family: mutation
# The fix: .at[].set() returns the updated array.
import jax.numpy as jnp


def set_last(array):
    array = array.at[4].set(10)
    return array


if __name__ == "__main__":
    print(set_last(jnp.arange(5, dtype=jnp.int32)))
