# source: https://github.com/jax-ml/jax/pull/5018
# family: dtypes
# expect: JAX701
# check: warning:Explicitly requested dtype
# In X32 mode `jnp.arange(10, dtype='float64')` is truncated to float32 with a
# UserWarning (the PR made JAX's own code stop doing this).
import jax.numpy as jnp

if __name__ == "__main__":
    grid = jnp.arange(10, dtype="float64")
    print(grid.dtype, grid.sum())
