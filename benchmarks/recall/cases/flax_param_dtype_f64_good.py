# source: https://github.com/google-research/google-research/issues/964
# family: dtypes
# The fix: enable x64 before any array is created.
import jax

jax.config.update("jax_enable_x64", True)

import flax.linen as nn  # noqa: E402
import jax.numpy as jnp  # noqa: E402

if __name__ == "__main__":
    layer = nn.Dense(3, param_dtype=jnp.float64, dtype=jnp.float64)
    params = layer.init(jax.random.PRNGKey(0), jnp.ones((1, 2)))
    print("param dtype:", params["params"]["kernel"].dtype)
