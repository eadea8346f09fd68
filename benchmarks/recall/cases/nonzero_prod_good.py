# source: https://github.com/jax-ml/jax/issues/5280
# family: shapes
# The fix from the thread: three-argument jnp.where.
import jax.numpy as jnp
from jax import jit


@jit
def f(a):
    return jnp.where(a != 0, a, 1).prod()


if __name__ == "__main__":
    print(f(jnp.array([0.0, 1.0, 2.0, 0.0, 3.0])))
