# source: https://github.com/jax-ml/jax/issues/5186
# family: shapes
# expect: JAX120
# check: error:ConcretizationTypeError
# jnp.arange with a stop that is a jit argument.
from jax import jit
import jax.numpy as np


def test_arange(n):
    return np.arange(0, n, 1)


if __name__ == "__main__":
    test = jit(test_arange)
    print(test(5))
