# source: https://github.com/jax-ml/jax/issues/6350
# family: shapes
# expect: JAX121 JAX120
# check: error:ConcretizationTypeError
# jax.ops.segment_sum under jit without num_segments: the output size depends on the
# segment ids, which are traced.
import jax
import numpy as np


@jax.jit
def pooled(c, b):
    return jax.ops.segment_sum(c, b)


if __name__ == "__main__":
    c = np.array([[1, 2, 3, 4], [4, 3, 2, 1], [5, 6, 7, 8]])
    b = np.array([0, 0, 1])
    print(pooled(c, b))
