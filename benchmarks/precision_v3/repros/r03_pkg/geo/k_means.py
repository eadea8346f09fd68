"""ott tools/k_means.py:393/396 and tests/solvers/quadratic/gw_barycenter_test.py:151-156
(JAX110/111): Python properties and attributes of a pytree class from another module (aux
data, a leaf's shape) are static even when the object holds traced leaves."""
import jax
import jax.numpy as jnp

from geo import pointcloud


def k_means(geom, k: int):
    if isinstance(geom, jnp.ndarray):
        geom = pointcloud.PointCloud(geom)
    if geom.batch_size == -1:
        geom = geom.materialize()
    assert geom.is_squared_euclidean
    if geom.is_online:
        geom = pointcloud.PointCloud(geom.x)
    return geom.x[:k]


def check(y, penalty: float):
    prob = pointcloud.PointCloud(y, penalty=penalty)
    assert prob.penalty == penalty
    assert prob.ndim == 2
    return prob.x


def callback(x):
    return k_means(x, k=2)


res = jax.jit(callback)(jnp.ones((3, 2)))
res2 = jax.jit(lambda y: check(y, 1.5))(jnp.ones((3, 2)))
