# source: https://github.com/jax-ml/jax/issues/8604
# family: dtypes
# expect: JAX703
# check: stdout:overflowed: True
# 256 ** jnp.arange(1, 5) overflows int32 (the last power is 2**32): 1 / 0 gives inf.
import jax.numpy as jnp

if __name__ == "__main__":
    scales = 1 / 256 ** jnp.arange(1, 5)
    print(scales)
    print("overflowed:", bool(jnp.isinf(scales).any()))
