# source: https://github.com/jax-ml/jax/issues/6350
# family: shapes
# The fix: pass num_segments, a Python int.
import jax
import numpy as np


@jax.jit
def pooled(c, b):
    return jax.ops.segment_sum(c, b, num_segments=2)


if __name__ == "__main__":
    c = np.array([[1, 2, 3, 4], [4, 3, 2, 1], [5, 6, 7, 8]])
    b = np.array([0, 0, 1])
    print(pooled(c, b))
