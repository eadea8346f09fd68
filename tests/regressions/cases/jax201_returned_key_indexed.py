"""A training function returns its state, the key it last drew from and its results as one
tuple; every caller keeps the tuple whole and reads only some elements with constant indexes
(`out[-1]["loss"]`, `train(...)[0]`), never the key, so nothing draws from it again (v23 row,
tuning material: MetaDDS_Jax denoising_diffusion_samplers/dds/train_dds.py:689, whose callers
do `out_dict = train_dds(config)` and read `out_dict[-1][...]`; JAX201,
analysis/result_uses.py). The twins: a caller that reads the key by a negative index and draws
from it, and a caller that uses the tuple another way (passed on whole)."""

import jax
import jax.numpy as jnp


def train(params, rng_key, steps):
    losses = []
    for _ in range(steps):
        rng_key, sub = jax.random.split(rng_key)
        params = params - 0.1 * jax.random.normal(sub, params.shape)
        losses.append(jnp.sum(params**2))
    final = jax.random.normal(rng_key, params.shape)
    return params, rng_key, {"loss": losses, "final": final}


def sweep():
    out = train(jnp.zeros(3), jax.random.PRNGKey(0), 5)
    print(out[-1]["loss"], out[0])
    return train(jnp.ones(3), jax.random.PRNGKey(1), 2)[0]


def train_twin(params, rng_key):
    noise = jax.random.normal(rng_key, params.shape)
    return params + noise, rng_key, {}  # error: JAX201


def resume_twin():
    out = train_twin(jnp.zeros(3), jax.random.PRNGKey(0))
    return jax.random.uniform(out[-2], (3,))


def train_whole_twin(params, rng_key):
    noise = jax.random.normal(rng_key, params.shape)
    return params + noise, rng_key  # error: JAX201


def passed_on_twin():
    out = train_whole_twin(jnp.zeros(3), jax.random.PRNGKey(0))
    return out
