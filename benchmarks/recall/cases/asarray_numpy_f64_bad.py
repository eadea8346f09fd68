# source: https://github.com/jax-ml/jax/issues/652
# family: dtypes
# expect: JAX701 JAX702
# check: stdout:lost precision: True
# float64 NumPy data handed to jnp.asarray becomes float32 without x64: the small
# increment on a large value is rounded away.
import jax.numpy as jnp
import numpy as np

if __name__ == "__main__":
    data = np.array([1.0e8, 1.0e8 + 1.0], dtype=np.float64)
    x = jnp.asarray(data)
    print("dtype:", x.dtype)
    print("lost precision:", bool(x[1] - x[0] == 0))
