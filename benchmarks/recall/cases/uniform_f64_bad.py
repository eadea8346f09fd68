# source: https://github.com/jax-ml/jax/issues/470
# family: dtypes
# expect: JAX701
# check: stdout:dtype: float32
# jax.random.uniform(dtype=float64) without x64 returns float32, and (issue 17366)
# without the warning jnp.zeros gives.
import jax.numpy as jnp
from jax import random

if __name__ == "__main__":
    x = random.uniform(random.PRNGKey(0), (1000,), dtype=jnp.float64)
    print("dtype:", x.dtype)
