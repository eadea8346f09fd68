"""penzai deprecated/v1/toolshed/check_layers_by_tracing.py:107 (JAX110): a method of a layer
that returns its declared input structure, and `.is_empty()` on a selection of it, are Python
metadata under `jax.eval_shape`."""
import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass
class Spec:
    shape: tuple[int, ...]
    wildcards: tuple[str, ...] = ()

    def is_empty(self) -> bool:
        return not self.wildcards


@jax.tree_util.register_pytree_node_class
class Layer:
    def __init__(self, w):
        self.w = w

    def input_structure(self) -> Spec:
        return Spec((3,))

    def tree_flatten(self):
        return (self.w,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


def check_layer(layer):
    def go(layer):
        input_structure = layer.input_structure()
        if not input_structure.is_empty():
            raise ValueError("cannot synthesize an input")
        return layer.w * jnp.zeros(input_structure.shape)

    return jax.eval_shape(go, layer)


print(check_layer(Layer(jnp.ones(3))))
