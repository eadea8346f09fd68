# source: https://github.com/jax-ml/jax/issues/5280
# family: shapes
# expect: JAX121
# check: error:ConcretizationTypeError
# a[jnp.nonzero(a)] under jit: the result's size depends on the values.
import jax.numpy as jnp
from jax import jit


@jit
def f(a):
    return a[jnp.nonzero(a)].prod()


if __name__ == "__main__":
    print(f(jnp.array([0.0, 1.0, 2.0, 0.0, 3.0])))
