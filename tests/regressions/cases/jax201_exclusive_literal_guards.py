"""Two consumptions of one key under `if`s that compare the same parameter with different
literals (`dropout_mode == "dropkey"`, then `dropout_mode == "post_softmax"`): no call runs
both, so the key serves the one branch that runs (v24 row, tuning material: megalodon-jax
src/megalodon_jax/layers/attention.py:175/200, JAX201; analysis/flow/key_guards.py
`exclusive_guards`). The twin: guards whose values overlap (`in ("dropkey", "both")` and
`in ("post_softmax", "both")`), where mode "both" draws twice from the key."""

import jax
import jax.numpy as jnp


def inverted_dropout(x, rate, key):
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0)


def attention(scores, key, dropout_rate=0.1, dropout_mode="post_softmax", deterministic=False):
    if not deterministic and dropout_rate > 0.0 and dropout_mode == "dropkey":
        keep = jax.random.bernoulli(key, 1.0 - dropout_rate, scores.shape)
        scores = jnp.where(keep, scores, -jnp.inf)
    weights = jax.nn.softmax(scores, axis=-1)
    if not deterministic and dropout_rate > 0.0 and dropout_mode == "post_softmax":
        weights = inverted_dropout(weights, dropout_rate, key)
    return weights


def attention_twin(scores, key, dropout_rate=0.1, dropout_mode="post_softmax"):
    if dropout_mode in ("dropkey", "both"):
        keep = jax.random.bernoulli(key, 1.0 - dropout_rate, scores.shape)
        scores = jnp.where(keep, scores, -jnp.inf)
    weights = jax.nn.softmax(scores, axis=-1)
    if dropout_mode in ("post_softmax", "both"):
        weights = inverted_dropout(weights, dropout_rate, key)  # error: JAX201
    return weights
