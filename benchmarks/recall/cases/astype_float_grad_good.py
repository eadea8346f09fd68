# source: https://github.com/jax-ml/jax/issues/2783
# family: host-conversion
# The fix: a traced comparison with jnp.where.
import jax
import jax.numpy as jnp


def func(x):
    return jnp.where(x >= 0.0, x, -x)


if __name__ == "__main__":
    print(jax.grad(func)(3.0))
