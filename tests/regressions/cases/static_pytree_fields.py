"""Static (meta) fields of registered pytrees are Python values under tracing.

Reduced from jax-md/jax-md jax_md/tpu.py:1362-1610 (`TPUGrid.factors`, `.num_dims` are
`jax_md.dataclasses.static_field()`s; 18 findings), plus the other ways libraries declare
them: `register_dataclass` metadata and `meta_fields`, `flax.struct.field(pytree_node=False)`,
`eqx.field(static=True)`, aux data of `register_pytree_node_class`, and a project's own
`static_field()` helper. Data fields stay traced (the `# error:` lines).
"""

import dataclasses

import equinox as eqx
import flax.struct
import jax
import jax.numpy as jnp


def static_field(**kwargs):
    return dataclasses.field(metadata=dict(static=True), **kwargs)


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Grid:
    cell_data: jax.Array
    num_dims: int = dataclasses.field(metadata=dict(static=True))
    factors: tuple = static_field()


@flax.struct.dataclass
class State:
    position: jax.Array
    capacity: int = flax.struct.field(pytree_node=False)


class Net(eqx.Module):
    weight: jax.Array
    depth: int = eqx.field(static=True)


@jax.tree_util.register_pytree_node_class
class Box:
    def __init__(self, values, size):
        self.values = values
        self.size_hint = size

    def tree_flatten(self):
        return (self.values,), (self.size_hint,)

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children, *aux)


@dataclasses.dataclass
class Meta:
    data: jax.Array
    width: int


jax.tree_util.register_dataclass(Meta, data_fields=["data"], meta_fields=["width"])


@jax.jit
def pad(grid):
    _, ragged = divmod(grid.cell_data.shape[0], grid.num_dims)
    assert ragged == 0
    for i in range(grid.num_dims):
        if grid.num_dims > 1:
            print(f"folding dim {i} of {grid.num_dims} ({grid.factors})")
    return grid.cell_data[: grid.num_dims]


@jax.jit
def allocate(state: State, net: Net, box: Box, meta: Meta):
    buf = jnp.zeros(state.capacity) + jnp.zeros(net.depth)
    for _ in range(box.size_hint + meta.width):
        buf = buf + 1
    if state.position.sum() > 0:  # error: JAX110
        buf = buf * 2
    return buf[: meta.width], int(meta.data)  # error: JAX101
