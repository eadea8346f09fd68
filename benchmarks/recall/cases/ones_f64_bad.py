# source: https://github.com/jax-ml/jax/issues/1333
# family: dtypes
# expect: JAX701
# check: stdout:dtype: float32
# jnp.ones(..., dtype=np.float64) without x64 gives float32 (with a UserWarning).
import jax.numpy as jnp
import numpy as np

if __name__ == "__main__":
    a = jnp.ones((2, 2), dtype=np.float64)
    print("dtype:", a.dtype)
