# source: https://github.com/jax-ml/jax/issues/8604
# family: dtypes
# The fix from the issue: exponentiate a float base.
import jax.numpy as jnp

if __name__ == "__main__":
    scales = 1 / 256.0 ** jnp.arange(1, 5)
    print(scales)
    print("overflowed:", bool(jnp.isinf(scales).any()))
