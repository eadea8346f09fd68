# source: https://github.com/jax-ml/jax/issues/13769
# family: shapes
# expect: JAX120
# check: error:ConcretizationTypeError
# The split points are plain Python ints, but wrapped in jnp.array (to please the type
# checker) inside jit they become a tracer: "in jax.numpy.split argument 1".
import jax
import jax.numpy as jnp


def split_points(sizes):
    points, total = [], 0
    for s in sizes[:-1]:
        total += s
        points.append(total)
    return points


@jax.jit
def heads(x):
    return jnp.split(x, jnp.array(split_points([2, 3, 1])))


if __name__ == "__main__":
    print(heads(jnp.arange(6.0)))
