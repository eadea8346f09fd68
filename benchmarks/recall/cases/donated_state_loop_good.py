# source: https://github.com/poets-ai/elegy/pull/226
# family: mutation
# The fix: the loop carries the new parameters (the donated buffer's successor).
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
        params, loss = train_step(params, batch)
        print(float(loss))
