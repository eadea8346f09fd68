"""Python configuration passed to a flax linen/nnx Module call is not an array (issue 23,
~23 of the false positives): a Module's `__call__` is not a transform, so only its first
input is taken as an array without more evidence (an array annotation, an array-only use such
as `labels.shape`, a traced caller passing an array). `mode`, `step`, `decode`,
`deterministic`, `cache_index` and shape tuples are the call's configuration; `self.features`
and `self.config.x` are fields. Twins (`# error:`): the input `x`, and a second input that
the body uses as an array.
"""

import flax.linen as nn
import jax
import jax.numpy as jnp
from flax import nnx


class Block(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x, mode, step, deterministic, batch_shape):
        if mode == "train":
            x = x * 2
        if step > 10:
            x = x + 1
        if not deterministic:
            x = nn.Dropout(0.1)(x, deterministic=False)
        if self.features > 4:
            x = x * 3
        noise = jnp.zeros(batch_shape)
        if x.sum() > 0:  # error: JAX110
            x = -x
        return x + noise


class Attn(nnx.Module):
    def __init__(self, n):
        self.n = n

    def __call__(self, x, decode, cache_index):
        if decode:
            x = x[cache_index]
        if self.n > 2:
            x = x * 2
        return x


class Head(nn.Module):
    @nn.compact
    def __call__(self, x, labels):
        logits = nn.Dense(10)(x)
        keep = labels.astype(bool)
        return logits[keep].sum()  # error: JAX130


@jax.jit
def run(params, x):
    return Block(4).apply(params, x, "train", 3, True, (2,), rngs={"dropout": jax.random.key(0)})
