# source: https://github.com/jax-ml/jax/issues/7032
# family: mutation
# The fix (the Sharp Bits' advice): functional updates with `.at[...].set(...)`.
import jax
import jax.numpy as jnp


def jx_warp(boxes, M, width, height):
    n = len(boxes)
    xy = jnp.ones((n * 4, 3))
    xy = xy.at[:, :2].set(boxes[:, [0, 1, 2, 3, 0, 3, 2, 1]].reshape(n * 4, 2))
    xy = xy @ M.T
    xy = (xy[:, :2] / xy[:, 2:3]).reshape(n, 8)
    x = xy[:, [0, 2, 4, 6]]
    y = xy[:, [1, 3, 5, 7]]
    xy = jnp.concatenate((x.min(1), y.min(1), x.max(1), y.max(1))).reshape(4, n).T
    xy = xy.at[:, [0, 2]].set(xy[:, [0, 2]].clip(0, width))
    xy = xy.at[:, [1, 3]].set(xy[:, [1, 3]].clip(0, height))
    return xy.astype(jnp.float32)


if __name__ == "__main__":
    boxes = jnp.array([[1.0, 2.0, 5.0, 6.0]])
    print(jax.jit(jx_warp, static_argnums=(2, 3))(boxes, jnp.eye(3), 4, 4))
