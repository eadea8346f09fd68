# source: https://github.com/poets-ai/elegy/pull/226
# family: mutation
# expect: JAX506
# check: error:deleted
# elegy donated the model states to its jitted train step ("will reduce GPU/TPU memory by
# 1/3"); a user's loop that kept passing the old states broke ("Donation requested for
# invalid buffer"). Here: the step's result is read for its loss and the donated parameters
# are passed again in the next step.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=0)
def train_step(params, batch):
    loss = jnp.mean((batch @ params) ** 2)
    new_params = params - 0.01 * jax.grad(lambda p: jnp.mean((batch @ p) ** 2))(params)
    return new_params, loss


if __name__ == "__main__":
    params = jnp.ones((3,))
    batches = [jnp.ones((4, 3)) * i for i in range(3)]
    for batch in batches:
        _, loss = train_step(params, batch)
        print(float(loss))
