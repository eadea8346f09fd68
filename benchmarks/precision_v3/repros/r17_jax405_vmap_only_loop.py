"""neural-tangents notebooks/neural_tangents_cookbook.ipynb cell 56 (JAX405): the function with
the long Python loop is only ever vmapped (never jitted): vmap runs it op by op with batched
values, there is no single program whose compile time grows."""
import jax
import jax.numpy as jnp

training_steps = 1000
grad_loss = jax.jit(lambda p: 2 * p)


def train_network(key):
    params = jax.random.normal(key, (3,))
    losses = []
    for i in range(training_steps):
        losses += [jnp.sum(params**2)]
        params = params - 0.01 * grad_loss(params)
    return params, jnp.stack(losses)


params, losses = jax.vmap(train_network)(jax.random.split(jax.random.key(0), 4))
