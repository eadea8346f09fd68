"""A jit built per step around a def that closes over a module the step builds from a new
config: each step is its own program, nothing to hoist (xlstm-jax
tests/models/xlstm_parallel/test_xlstm_layer.py:60, `jax.jit(shard_map(execute_fn, ...))`
with `execute_fn` calling `layer.init_with_output` and `layer = layer_class(config)` per
configuration). The twin: the def closes over step data only (an array), where one program
passed the data as an argument would do.
"""

from itertools import product

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


class Layer:
    def __init__(self, width):
        self.width = width

    def init_with_output(self, rng, x):
        return jnp.tile(x, self.width) + jax.random.normal(rng, ())


class LayerV1(Layer):
    pass


def variants(mesh, x, layer_type):
    outputs = {}
    for width, cap in product([1, 2], [None, 2.0]):
        config = dict(width=width, cap=cap)
        layer_class = Layer if layer_type == "v0" else LayerV1
        layer = layer_class(config["width"])

        def execute_fn(rng, x):
            return layer.init_with_output(rng, x)  # noqa: B023 (the point of the case)

        init_fn = jax.jit(jax.shard_map(execute_fn, mesh=mesh, in_specs=(P(), P()), out_specs=P()))
        outputs[width] = init_fn(jax.random.PRNGKey(0), x)
    return outputs


def data_only(mesh, xs):
    outputs = []
    for x in xs:
        shift = x * 2.0

        def execute_fn(rng, y):
            return y + shift  # noqa: B023

        init_fn = jax.jit(  # error: JAX401
            jax.shard_map(execute_fn, mesh=mesh, in_specs=(P(), P()), out_specs=P())
        )
        outputs.append(init_fn(jax.random.PRNGKey(0), x))
    return outputs
