# source: https://github.com/google-research/google-research/issues/964
# family: dtypes
# expect: JAX701
# check: stdout:param dtype: float32
# A flax layer asked for float64 parameters without x64 enabled: the parameters are
# silently created as float32 (the "requested in zeros is not available" warning).
import flax.linen as nn
import jax
import jax.numpy as jnp

if __name__ == "__main__":
    layer = nn.Dense(3, param_dtype=jnp.float64, dtype=jnp.float64)
    params = layer.init(jax.random.PRNGKey(0), jnp.ones((1, 2)))
    print("param dtype:", params["params"]["kernel"].dtype)
