# source: https://github.com/jax-ml/jax/issues/1333
# family: dtypes
# The fix: JAX_ENABLE_X64 / jax_enable_x64 before the arrays are made.
import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

if __name__ == "__main__":
    a = jnp.ones((2, 2), dtype=np.float64)
    print("dtype:", a.dtype)
