"""Random sampling with PRNG and host-RNG mistakes."""

import jax
import jax.numpy as jnp
import numpy as np


def dropout(key, x, rate):
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    noise = jax.random.normal(key, x.shape)  # the same key again: correlated with `keep`
    return jnp.where(keep, x / (1.0 - rate), 0.0) + 0.01 * noise


@jax.jit
def augment(x):
    return x + np.random.normal(size=x.shape)  # evaluated once at trace time, baked in


@jax.jit
def topk_mean(x, k):
    return jnp.sort(x)[-k:].mean()  # slice bound from a traced argument


@jax.jit
def check_positive(x):
    assert (x > 0).all()  # assert on a traced value
    return jnp.log(x)


def sample_many(n):
    key = jax.random.key(42)
    out = []
    for _ in range(n):
        out.append(jax.random.uniform(key))  # consumed every iteration, never split
    return out
