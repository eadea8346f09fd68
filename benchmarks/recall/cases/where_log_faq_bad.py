# source: https://docs.jax.dev/en/latest/faq.html#gradients-contain-nan-where-using-where
# family: numerics
# expect: JAX704
# check: stdout:nan gradient: True
# The FAQ's example: a log guarded by jnp.where still has a NaN gradient at 0.
import jax
import jax.numpy as jnp


def my_log(x):
    return jnp.where(x > 0.0, jnp.log(x), 0.0)


if __name__ == "__main__":
    g = jax.grad(my_log)(0.0)
    print("nan gradient:", bool(jnp.isnan(g)))
