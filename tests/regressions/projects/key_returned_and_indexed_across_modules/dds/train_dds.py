"""Fladmark/MetaDDS_Jax denoising_diffusion_samplers/dds/train_dds.py:80-689 and
notebooks/hyperparameter_search.py:86, reduced (v23 row, tuning material, JAX201): a training
function returns the key it last drew from inside a tuple of results, and the only importer
keeps the tuple whole and reads its last element (`out_dict[-1]["elbo"]`), never the key
(analysis/result_uses.py: `return_uses` of the importer's summary, constant indexes, joined
into the `RETURN_USES` seeds). The near miss: `train_resume`, whose importer reads the key by
a negative index and draws from it."""

import jax
import jax.numpy as jnp


def train_dds(config):
    rng_key = jax.random.PRNGKey(config["seed"])
    params = jnp.zeros(3)
    losses = []
    for _ in range(config["steps"]):
        rng_key, sub = jax.random.split(rng_key)
        params = params - 0.1 * jax.random.normal(sub, params.shape)
        losses.append(jnp.sum(params**2))
    trajectory = jax.random.normal(rng_key, (4, 3))
    return params, rng_key, {"elbo": losses, "aug": trajectory}


def train_resume(config):
    rng_key = jax.random.PRNGKey(config["seed"])
    params = jax.random.normal(rng_key, (3,))
    return params, rng_key, {}  # error: JAX201
