# source: https://github.com/jax-ml/jax/issues/19433
# family: shapes
# expect: JAX120
# check: error:ConcretizationTypeError
# jnp.arange bounded by an element of a traced array.
import jax.numpy as np
from jax import jit


@jit
def f(x: np.ndarray) -> np.ndarray:
    return np.arange(x[0] - 1, x[0] + 1)


if __name__ == "__main__":
    print(f(np.zeros(1).astype(int)))
