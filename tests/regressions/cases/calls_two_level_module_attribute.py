"""A flax nnx Module `__call__` reached only through two attribute levels,
`self.model.visual(...)` (`Model.__init__` sets `self.model = Inner()`, `Inner.__init__` sets
`self.visual = Vision()`): the call graph (analysis/calls.py) resolves it, so the callers'
arguments decide what is traced instead of the default seed "required parameters of a Module
`__call__` are traced". Fresh corpus v4, tuning half, F1 (benchmarks/precision_v4, repro v01):

bonsai bonsai/models/qwen3_vl/modeling.py:604/643/665/666 (JAX101 medium x6): `int(grid_thw[0, 1])`
in the vision sub-module of an nnx Module. The only jitted entry (`forward`) calls the model with
`pixels`/`grid_thw` left at their None default, so the branch that calls `visual(...)` never runs
under the jit; the vision path runs eagerly (`forward_vision`, "not JIT"). The call is written
`self.model.visual(...)` (two attribute levels): with `self.visual(...)` (one level) the caller is
resolved and the finding disappears, so the unresolved call leaves `Vision.__call__` with the
default seed "required parameters of a Module `__call__` are traced" (medium).

Expected after the fix: no finding.

The twin (`# error:`) is the same two-level call from a jit that passes the arrays: resolved,
the caller's traced arguments reach `_rot` and the conversion is reported.
"""

import jax
import jax.numpy as jnp
from flax import nnx
from jax import Array


class Vision(nnx.Module):
    def __init__(self):
        self.scale = nnx.Param(jnp.ones(()))

    def _rot(self, grid_thw: Array) -> Array:
        grid_h, grid_w = int(grid_thw[0, 1]), int(grid_thw[0, 2])
        return jnp.zeros((grid_h, grid_w)) * self.scale[...]

    def __call__(self, pixels: Array, grid_thw: Array) -> Array:
        return pixels.sum() + self._rot(grid_thw).sum()


class Inner(nnx.Module):
    def __init__(self):
        self.visual = Vision()


class Model(nnx.Module):
    def __init__(self):
        self.model = Inner()

    def __call__(self, ids: Array, pixels: Array | None = None, grid_thw: Array | None = None):
        out = ids.astype(jnp.float32)
        if pixels is not None and grid_thw is not None:
            out = out + self.model.visual(pixels, grid_thw)
        return out


@jax.jit
def forward(model: Model, ids: Array) -> Array:
    return model(ids)


def forward_vision(model: Model, ids: Array, pixels: Array, grid_thw: Array) -> Array:
    """Not jitted: the vision path has data-dependent shapes."""
    return model(ids, pixels, grid_thw)


class Vision2(nnx.Module):
    def __init__(self):
        self.scale = nnx.Param(jnp.ones(()))

    def _rot(self, grid_thw: Array) -> Array:
        grid_h = int(grid_thw[0, 1])  # error: JAX101
        return jnp.zeros((grid_h,)) * self.scale[...]

    def __call__(self, pixels: Array, grid_thw: Array) -> Array:
        return pixels.sum() + self._rot(grid_thw).sum()


class Inner2(nnx.Module):
    def __init__(self):
        self.visual = Vision2()


class Model2(nnx.Module):
    def __init__(self):
        self.model = Inner2()

    def __call__(self, ids: Array, pixels: Array, grid_thw: Array):
        return ids.astype(jnp.float32) + self.model.visual(pixels, grid_thw)


@jax.jit
def forward2(model: Model2, ids: Array, pixels: Array, grid_thw: Array) -> Array:
    return model(ids, pixels, grid_thw)
