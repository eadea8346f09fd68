# source: https://github.com/jax-ml/jax/pull/5018
# family: dtypes
# The fix: request the dtype that is available (the canonical float32).
import jax.numpy as jnp

if __name__ == "__main__":
    grid = jnp.arange(10, dtype="float32")
    print(grid.dtype, grid.sum())
