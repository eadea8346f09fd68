"""Fields, properties and methods of an object of another module's class are of unknown kind
(tuning half of the v3 corpus, T4: ott `PointCloud(...)`/`GWBarycenterProblem(...)` built
inside a traced function, `prob.fused_penalty == fused_penalty`, `geom.is_online`; a lineax
operator parameter, `A.out_size()`), so they do not fire; a parameter that `jax.vmap` maps
with `in_axes=[0] + [None] * 2` stays a Python value (T6). Twins (`# error:`): the array the
object was built from, and the mapped parameter.
"""

import functools

import jax
import jax.numpy as jnp
import lineax as lx
from ott.geometry import pointcloud


def k_means(geom, k: int):
    if isinstance(geom, jnp.ndarray):
        geom = pointcloud.PointCloud(geom)
    if geom.batch_size == -1:
        geom = geom.materialize()
    assert geom.is_squared_euclidean
    return geom.x[:k]


def check(y, penalty: float):
    prob = pointcloud.PointCloud(y, penalty=penalty)
    assert prob.penalty == penalty
    assert prob.ndim == 2
    if y.sum() > 0:  # error: JAX110
        y = -y
    return prob.x


def invert(A: lx.AbstractLinearOperator):
    d = A.out_size()
    return jnp.zeros(d)


@functools.partial(jax.vmap, in_axes=[0] + [None] * 2)
def sweep(rng, min_iterations: int = 0, max_iterations: int = 300):
    errors = jnp.full((max_iterations,), -1.0)
    step = 1.0 if min_iterations == max_iterations else 2.0
    if rng.sum() > 0:  # error: JAX110
        step = 3.0
    return errors.sum() * step


@jax.jit
def run(x, A):
    return k_means(x, 2), check(x, 1.5), invert(A)
