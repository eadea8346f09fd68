# source: https://github.com/jax-ml/jax/issues/7032
# family: mutation
# expect: JAX501
# check: error:TypeError
# A box-warping function ported from NumPy writes into `xy` with `xy[:, :2] = ...` and
# `xy[:, [0, 2]] = ...clip(...)`: JAX arrays are immutable (the reply's diagnosis).
import jax
import jax.numpy as jnp


def jx_warp(boxes, M, width, height):
    n = len(boxes)
    xy = jnp.ones((n * 4, 3))
    xy[:, :2] = boxes[:, [0, 1, 2, 3, 0, 3, 2, 1]].reshape(n * 4, 2)
    xy = xy @ M.T
    xy = (xy[:, :2] / xy[:, 2:3]).reshape(n, 8)
    x = xy[:, [0, 2, 4, 6]]
    y = xy[:, [1, 3, 5, 7]]
    xy = jnp.concatenate((x.min(1), y.min(1), x.max(1), y.max(1))).reshape(4, n).T
    xy[:, [0, 2]] = xy[:, [0, 2]].clip(0, width)
    xy[:, [1, 3]] = xy[:, [1, 3]].clip(0, height)
    return xy.astype(jnp.float32)


if __name__ == "__main__":
    boxes = jnp.array([[1.0, 2.0, 5.0, 6.0]])
    print(jax.jit(jx_warp, static_argnums=(2, 3))(boxes, jnp.eye(3), 4, 4))
