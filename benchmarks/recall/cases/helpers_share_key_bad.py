# source: https://github.com/jax-ml/jax/pull/181
# family: prng
# expect: JAX201
# check: keyreuse
# The training loop hands the same key to the batch sampler and to the update step,
# each of which draws from it (mattjj's review: "update(t, opt_state, rng) could itself
# call split somewhere in its code").
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
        old, rng = random.split(rng)
        batch = sample_batch(rng, data, 4)
        params = update(params, batch, rng)
    print(params)
