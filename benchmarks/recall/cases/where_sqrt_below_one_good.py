# source: https://github.com/jax-ml/jax/issues/5798
# family: numerics
# The fix from the thread (the double where): the sqrt never sees a value below 1.
import jax
import jax.numpy as jnp


def f(x):
    condition = x < 1.0
    x_valid = jnp.where(condition, 1.0, x)
    return jnp.where(condition, x, jnp.sqrt(x_valid))


df = jax.grad(f)

if __name__ == "__main__":
    g = df(0.0)
    print("nan gradient:", bool(jnp.isnan(g)))
