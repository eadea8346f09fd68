"""dsjamieson/jax_nbody_emulator tests/test_layers.py:196-205, reduced (v22 rows, tuning
material: JAX201 medium x309 over its tests): the input is drawn from `key`, then `key` is
handed to `init` of a linen Module of another module, by its class or by a partial alias.
flax draws the weights from keys it folds the module's path into, so the two are independent
(checked with JAX 0.12: correlation -0.015, no KeyReuseError under `jax_debug_key_reuse`).
The near miss: `init` of a plain class draws from `key` itself, so a draw after it repeats."""

import jax
import jax.numpy as jnp
from emulator.layers import Conv3D, ConvBase3D, PlainLayer


def forward_pass():
    key = jax.random.PRNGKey(42)
    layer = Conv3D(out_chan=4)
    x = jax.random.normal(key, (1, 8, 2))
    params = layer.init(key, x)
    return layer.apply(params, x)


def forward_pass_base():
    key = jax.random.PRNGKey(42)
    x = jax.random.normal(key, (1, 8, 2))
    params = ConvBase3D(out_chan=4).init(key, x)
    return params


def noise_after_init():
    key = jax.random.PRNGKey(42)
    x = jnp.ones((1, 8, 2))
    params = Conv3D(out_chan=4).init(key, x)
    noise = jax.random.normal(key, (1, 8, 2))
    return params, noise


def noise_after_plain_init():
    key = jax.random.PRNGKey(42)
    x = jnp.ones((1, 8, 2))
    params = PlainLayer().init(key, x)
    noise = jax.random.normal(key, (1, 8, 2))  # error: JAX201
    return params, noise
