from typing import NamedTuple

import jax
from jax.sharding import Mesh, NamedSharding, PartitionSpec


class GridShape(NamedTuple):
    nvpar: int
    nmu: int


class Scaled(NamedTuple):
    n: int
    scale: jax.Array


def _spec_for_shape(shape, grid: GridShape) -> PartitionSpec:
    s = tuple(shape)
    if s == (grid.nvpar, grid.nmu):
        return PartitionSpec("vp", "mu")
    if len(s) == 3 and s[0] == 9 and s[1] == grid.nvpar:
        return PartitionSpec(None, "vp", "mu" if s[2] == grid.nmu else None)
    return PartitionSpec()


def _scaled_spec(shape, scaled: Scaled) -> PartitionSpec:
    if shape[0] == scaled.scale:  # error: JAX110
        return PartitionSpec("vp")
    return PartitionSpec()


def precompute_sharded(geometry, params, mesh: Mesh | None, grid: GridShape, scaled: Scaled):
    def _wrapped(geom):
        return {k: v * 2 for k, v in geom.items()}

    shapes = jax.eval_shape(_wrapped, geometry)

    def _leaf_sharding(leaf):
        if hasattr(leaf, "shape") and len(leaf.shape) > 0:
            _scaled_spec(leaf.shape, scaled)
            return NamedSharding(mesh, _spec_for_shape(leaf.shape, grid))
        return None

    out_shardings = jax.tree_util.tree_map(_leaf_sharding, shapes)
    return jax.jit(_wrapped, out_shardings=out_shardings)(geometry)


@jax.jit
def solve_on(x, grid: GridShape):
    if grid.nvpar > 1:  # error: JAX110
        return x
    return -x
