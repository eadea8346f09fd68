"""Static shape metadata is a Python value, wherever it travels (issue 23, ~33 of the false
positives on 25 unseen repositories): ints from `x.shape` returned next to arrays by a helper
and compared by the caller (`h, y = helper(x)`: each tuple element keeps its own kind), a
shape tuple `batch = (x.shape[0],)` passed into a Module call and used as a shape, and the
properties of a registered pytree's aux data. The `# error:` lines are the twins: the array
element of the same tuple, and a Module's array input, still fire.
"""

import flax.linen as nn
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


def _dims(x):
    return x.shape[0], x * 2


def _last(x):
    n = x.shape[-1]
    return n, jnp.tanh(x)


@jax.jit
def step(x):
    h, y = _dims(x)
    if h > 3:
        y = y + 1
    n, z = _last(x)
    for _ in range(n):
        z = z + 1
    if y.sum() > 0:  # error: JAX110
        y = -y
    return y, z


class Noise(nn.Module):
    @nn.compact
    def __call__(self, x, batch_shape):
        noise = jnp.zeros(batch_shape + (x.shape[-1],))
        if len(batch_shape) > 1:
            noise = noise[0]
        return x + noise


class Model(nn.Module):
    @nn.compact
    def __call__(self, x):
        batch = (x.shape[0],)
        y = Noise()(x, batch)
        if y.mean() > 0:  # error: JAX110
            y = -y
        return y


@register_pytree_node_class
class Grid:
    def __init__(self, values, spacing, periodic):
        self.values = values
        self.spacing = spacing
        self.periodic = periodic

    @property
    def ndim(self):
        return len(self.spacing)

    def tree_flatten(self):
        return (self.values,), (self.spacing, self.periodic)

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(children[0], *aux)


@jax.jit
def laplace(grid: Grid):
    out = grid.values
    if grid.periodic:
        out = jnp.roll(out, 1)
    for _ in range(grid.ndim):
        out = out + 1
    return out


step(jnp.ones((4, 3)))
