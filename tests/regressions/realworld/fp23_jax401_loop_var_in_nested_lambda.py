"""JAX401 FP: the jitted function closes over the loop variable (through a lambda nested in it),
so every iteration is a different program and needs its own trace anyway; jaxlint exempts a
jitted function that reads the loop variable directly, but not this one.

From google/maxtext MaxText/generate_param_only_checkpoint.py:62-68 (`slice_ith` takes layer
`i` of the scanned parameters, once per layer).
"""
import types

import jax
import jax.numpy as jnp


def unroll_params(config, layers):
    out = {}
    for i in range(config.num_decoder_layers):

        def slice_ith(input_layers):
            return jax.tree_util.tree_map(
                lambda x: jax.numpy.take(x, i, axis=config.param_scan_axis), input_layers
            )

        out[f"layers_{i}"] = jax.jit(slice_ith, out_shardings=None)(layers)
    return out


config = types.SimpleNamespace(num_decoder_layers=3, param_scan_axis=0)
print(unroll_params(config, {"w": jnp.arange(12.0).reshape(3, 4)})["layers_2"]["w"])
