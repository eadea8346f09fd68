"""A jitted method of a registered pytree class that updates `self` in place and returns it:
jit flattens `self` into leaves and rebuilds a fresh object for the trace, so the writes touch
only that copy, which is the output; nothing of the trace outlives it (v22 rows, tuning
material: jax_roche vector.py:46-81, `self.x *= other` in the jitted `__rmul__` of a
`@register_pytree_node_class` `Vec3`, JAX502 x12; `Transforms._registered_pytree`). The
twin's class is plain: its `self` is the caller's object."""

import jax
from jax import tree_util


@tree_util.register_pytree_node_class
class Vec3:
    def __init__(self, x=0.0, y=0.0):
        self.x = x
        self.y = y

    def tree_flatten(self):
        return (self.x, self.y), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    @jax.jit
    def scale(self, other):
        self.x *= other
        self.y *= other
        return self


class Registered:
    def __init__(self, x):
        self.x = x

    def tree_flatten(self):
        return (self.x,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    @jax.jit
    def scale(self, other):
        self.x *= other
        return self


tree_util.register_pytree_node(Registered, Registered.tree_flatten, Registered.tree_unflatten)


class Counter:
    def __init__(self):
        self.calls = 0
        self.step = jax.jit(self._step)

    def _step(self, x):
        self.calls += 1  # error: JAX502
        return x * 2
