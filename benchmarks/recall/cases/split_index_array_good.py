# source: https://github.com/jax-ml/jax/issues/13769
# family: shapes
# The fix: pass the Python list of ints itself.
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
    return jnp.split(x, split_points([2, 3, 1]))


if __name__ == "__main__":
    print(heads(jnp.arange(6.0)))
