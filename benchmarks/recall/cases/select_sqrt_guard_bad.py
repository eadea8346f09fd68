# source: https://github.com/jax-ml/jax/issues/2630
# family: numerics
# expect: JAX704
# check: stdout:nan gradient: True
# "This causes code designed to guard against nans to not work": the sqrt sits in the branch
# jnp.where does not take for x <= 0, and its gradient is still NaN there.
import jax
import jax.numpy as jnp


def root(x):
    return jnp.sum(jnp.where(x <= 0, 0.0, jnp.sqrt(x)))


if __name__ == "__main__":
    g = jax.grad(root)(jnp.array([0.0, -1.0, 4.0]))
    print("nan gradient:", bool(jnp.isnan(g).any()))
