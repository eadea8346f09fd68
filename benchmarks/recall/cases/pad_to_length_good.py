# source: https://github.com/jax-ml/jax/issues/204
# family: shapes
# The fix: the length is static.
import jax.numpy as np
import numpy as onp
from jax import jit, lax


def dynamic_update_slice_test(first_row, pad_to_length):
    width = first_row.shape[0]
    empty_array = lax.full((pad_to_length, width), 0, first_row.dtype)
    first_row_reshaped = np.reshape(first_row, (1, width))
    return lax.dynamic_update_slice(empty_array, first_row_reshaped, (0, 0))


if __name__ == "__main__":
    print(jit(dynamic_update_slice_test, static_argnums=1)(onp.array([1, 2]), 4))
