"""JAX201: `model.apply(..., rngs={"dropout": k})` is flax.linen's `apply` whatever builds
`model` (a factory here): linen never draws from the key it is given, only from keys it
derives by folding in each module's path (`LazyRng`), so a `jax.random` draw from the same
key is independent of the dropout masks (analysis/flow/key_draws.py `_linen_signature`,
beside `folds_module_paths`' proven linen classes).

Reduced from SELFEMO/wound_classification_jax nets/Hybrid.py:376-392 and nets/ResNet.py:
339-411 (v23 check set, FP x3, tuning material). The near miss: haiku's `apply(params, key,
x)` takes the key itself.
"""

import jax
from nets import build_haiku, build_model


def forward(params, key):
    model = build_model()
    x = jax.random.normal(key, (4, 8))
    return model.apply({"params": params}, x, train=True, rngs={"dropout": key})


def forward_haiku(params, key):
    net = build_haiku()
    x = jax.random.normal(key, (4, 8))
    return net.apply(params, key, x)  # error: JAX201
