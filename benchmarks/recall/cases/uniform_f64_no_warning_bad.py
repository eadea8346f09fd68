# source: https://github.com/jax-ml/jax/issues/17366
# family: dtypes
# expect: JAX701
# check: stdout:dtype: float32
# "Missing warning on requesting float64 in random.uniform": without jax_enable_x64 the
# requested float64 draws come back as float32 (at the time, silently).
import jax.numpy as jnp
from jax import random

if __name__ == "__main__":
    samples = random.uniform(random.PRNGKey(0), (1000,), dtype=jnp.float64)
    print("dtype:", samples.dtype)
