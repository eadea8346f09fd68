"""Reduced from google/init2winit init2winit/model_lib/vit.py:240-250 (JAX701 false positive):
`variance_scaling(..., dtype=jnp.float_)` passed as a flax layer's `kernel_init` is called by
the layer with its `param_dtype` (float32): no 64-bit request, no warning (checked,
benchmarks/precision_v6/check_repros/B_jax701_float_init.py). Near misses: the initializer
called directly requests float64; a layer's `param_dtype=jnp.float64` is the layer's own
request (counted in the one finding per module: "1 more 64-bit request")."""

import flax.linen as nn
import jax
import jax.numpy as jnp


class Block(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.SelfAttention(
            num_heads=2,
            kernel_init=nn.initializers.variance_scaling(
                1.0, "fan_avg", "uniform", in_axis=-2, out_axis=-1, dtype=jnp.float_
            ),
        )(x)
        return nn.Dense(4, kernel_init=jax.nn.initializers.lecun_normal(dtype=jnp.float64))(x)


def direct(key):
    init = jax.nn.initializers.lecun_normal(dtype=jnp.float_)  # error: JAX701
    return init(key, (4, 3))


def layer_asks(x):
    return nn.Dense(4, param_dtype=jnp.float64)
