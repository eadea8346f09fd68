"""bonsai bonsai/models/qwen3_vl/modeling.py:604/643/665/666 (JAX101 medium x6): `int(grid_thw[0, 1])`
in the vision sub-module of an nnx Module. The only jitted entry (`forward`) calls the model with
`pixels`/`grid_thw` left at their None default, so the branch that calls `visual(...)` never runs
under the jit; the vision path runs eagerly (`forward_vision`, "not JIT"). The call is written
`self.model.visual(...)` (two attribute levels): with `self.visual(...)` (one level) the caller is
resolved and the finding disappears, so the unresolved call leaves `Vision.__call__` with the
default seed "required parameters of a Module `__call__` are traced" (medium).

Expected after the fix: no finding."""

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


if __name__ == "__main__":
    m = Model()
    print(forward(m, jnp.arange(3)))
    print(forward_vision(m, jnp.arange(3), jnp.ones((2, 2)), jnp.array([[1, 4, 4]])))
