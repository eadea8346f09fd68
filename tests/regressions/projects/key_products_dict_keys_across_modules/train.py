"""orginos/jaxQFT scripts/phi4/train_mg_single.py:162-256, reduced (v16 rows, tuning
material, JAX201): on the resume path the model is built only for its configuration and the
weights come from the checkpoint, so the key it was given feeds no used draw; the summary of
models/flow.py says which dict keys of the result are drawn (`key_products`, string paths).
The near miss keeps the drawn weights."""

import pickle

import jax
from models.flow import init_mgflow


def setup(path, size, resume):
    key = jax.random.PRNGKey(0)
    if resume:
        with open(path, "rb") as f:
            ckpt = pickle.load(f)
        key = ckpt["rng_key"]
        model = init_mgflow(key, size)
        cfg = model["cfg"]
        weights = ckpt["weights"]
    else:
        key, k_model = jax.random.split(key)
        model = init_mgflow(k_model, size)
        cfg = model["cfg"]
        weights = model["weights"]
    key, k_data = jax.random.split(key)
    return cfg, weights, k_data


def fresh(size):
    key = jax.random.PRNGKey(0)
    model = init_mgflow(key, size)
    weights = model["weights"]
    key, k_data = jax.random.split(key)  # error: JAX201
    return weights, k_data
