# source: https://github.com/keras-team/keras/pull/20110
# family: numerics
# expect: JAX704
# check: stdout:nan gradient: True
# keras.ops.divide_no_nan on JAX before the fix: the division's infinite derivative in the
# numerator at x2 == 0 leaks through the where, so jax.grad(...)(1.0, 0.0) is NaN.
import jax
import jax.numpy as jnp


def divide_no_nan(x1, x2):
    return jnp.where(x2 == 0, 0, jnp.divide(x1, x2))


if __name__ == "__main__":
    g = jax.grad(divide_no_nan)(jnp.array(1.0), jnp.array(0.0))
    print("nan gradient:", bool(jnp.isnan(g)))
