"""init2winit vit.py:246: `variance_scaling(..., dtype=jnp.float_)` as the kernel_init of nn.SelfAttention.

Alone, the initializer asks for float64 (float32 plus a UserWarning without x64). Inside flax, the layer calls
`kernel_init(key, shape, self.param_dtype)`, so the float64 default is overridden by float32 and never requested.
"""

import warnings

import flax.linen as nn
import jax
import jax.numpy as jnp

print("jnp.float_ is", jnp.float_)
init = jax.nn.initializers.variance_scaling(
    1.0, "fan_avg", "uniform", in_axis=-2, out_axis=-1, batch_axis=(), dtype=jnp.float_
)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    out = init(jax.random.key(0), (4, 2, 3))
print("initializer alone: dtype", out.dtype, "warnings:", len(w))

layer = nn.SelfAttention(num_heads=2, kernel_init=init, deterministic=True)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    params = layer.init(jax.random.key(0), jnp.ones((1, 3, 4)))
print(
    "inside nn.SelfAttention: kernel dtypes",
    {str(x.dtype) for x in jax.tree.leaves(params)},
    "warnings:",
    [str(x.message)[:80] for x in w],
)
