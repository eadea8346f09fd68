"""A flax `init` handed a name that nothing binds (a typo for the key split above it): the key
flow's stream reading asked the name's bindings and got none, and every PRNG rule stopped on
the file with an internal error (JAX000; v35 arvindrajaraman/language-skills-diayn ppo.py:51,
`model.init(model_key, dummy_state)` after `key, actor_key, ... = split(key, 4)`). The file is
linted as usual now; the near miss keeps the key reuse next to it reported."""

import flax.linen as nn
import jax
import jax.numpy as jnp


class ActorModel(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(4)(x)


def train(key):
    key, actor_key = jax.random.split(key)
    model = ActorModel()
    params = model.init(model_key, jnp.zeros((1, 3)))  # noqa: F821 - the user's typo
    noise = jax.random.normal(actor_key, (3,))
    return params, noise, jax.random.uniform(actor_key, (3,))  # error: JAX201
