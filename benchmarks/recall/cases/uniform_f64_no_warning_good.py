# source: https://github.com/jax-ml/jax/issues/17366
# family: dtypes
# The fix: enable 64-bit types before any array is created.
import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
from jax import random  # noqa: E402

if __name__ == "__main__":
    samples = random.uniform(random.PRNGKey(0), (1000,), dtype=jnp.float64)
    print("dtype:", samples.dtype)
