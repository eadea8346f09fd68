# source: https://github.com/jax-ml/jax/issues/470
# family: dtypes
# The fix from the issue: set jax_enable_x64 first.
import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
from jax import random  # noqa: E402

if __name__ == "__main__":
    x = random.uniform(random.PRNGKey(0), (1000,), dtype=jnp.float64)
    print("dtype:", x.dtype)
