# source: https://github.com/jax-ml/jax/issues/2630
# family: numerics
# The double where: the sqrt's input is 1.0 wherever its branch is not taken.
import jax
import jax.numpy as jnp


def root(x):
    return jnp.sum(jnp.where(x <= 0, 0.0, jnp.sqrt(jnp.where(x <= 0, 1.0, x))))


if __name__ == "__main__":
    g = jax.grad(root)(jnp.array([0.0, -1.0, 4.0]))
    print("nan gradient:", bool(jnp.isnan(g).any()))
