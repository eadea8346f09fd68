# source: https://github.com/jax-ml/jax/issues/652
# family: dtypes
# The fix: enable x64 (proteneer's answer in the issue).
import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

if __name__ == "__main__":
    data = np.array([1.0e8, 1.0e8 + 1.0], dtype=np.float64)
    x = jnp.asarray(data)
    print("dtype:", x.dtype)
    print("lost precision:", bool(x[1] - x[0] == 0))
