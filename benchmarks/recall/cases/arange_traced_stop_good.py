# source: https://github.com/jax-ml/jax/issues/5186
# family: shapes
# The fix: mark the length static.
from jax import jit
import jax.numpy as np


def test_arange(n):
    return np.arange(0, n, 1)


if __name__ == "__main__":
    test = jit(test_arange, static_argnums=0)
    print(test(5))
