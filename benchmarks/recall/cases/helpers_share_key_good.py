# source: https://github.com/jax-ml/jax/pull/181
# family: prng
# The fix: one fresh subkey per consumer.
import jax
import jax.numpy as jnp
from jax import random


def sample_batch(rng, data, batch_size):
    idx = random.choice(rng, data.shape[0], (batch_size,))
    return data[idx]


def update(params, batch, rng):
    noise = random.normal(rng, params.shape) * 0.01
    return params - 0.1 * (params - batch.mean(0)) + noise


if __name__ == "__main__":
    rng = random.PRNGKey(0)
    data = jnp.arange(20.0).reshape(10, 2)
    params = jnp.zeros(2)
    for t in range(3):
        rng, batch_rng, update_rng = random.split(rng, 3)
        batch = sample_batch(batch_rng, data, 4)
        params = update(params, batch, update_rng)
    print(params)
