"""A jitted training step unrolls `for i in range(gradient_steps)` over a static argument,
and the only call passes a value the module cannot read (the parameter of a method that gets
a config field: `utd` is 2 in every config), so the count may be small and nothing says it is long (v23 rows, tuning material:
skypitcher/soft_gac_jax algorithms/dime.py:469 and six twins, JAX405). The twin: a call of
the same kind of step that passes a literal 500."""

from functools import partial

import jax
import jax.numpy as jnp


class Agent:
    def __init__(self, cfg):
        self.gradient_steps = cfg.alg.train.utd
        self.params = jnp.zeros(4)

    @classmethod
    @partial(jax.jit, static_argnames=["cls", "gradient_steps"])
    def _train(cls, params, gradient_steps, data):
        for i in range(gradient_steps):
            params = params - 0.1 * jnp.tanh(params + data[i])
        return params

    def train(self, data, gradient_steps):
        self.params = self._train(self.params, gradient_steps, data)

    def learn(self, data):
        self.train(data, self.gradient_steps)


@partial(jax.jit, static_argnames=("steps",))
def fit_twin(params, data, steps):
    for i in range(steps):  # error: JAX405
        params = params - 0.1 * jnp.tanh(params + data[i % 4])
    return params


def run_twin(data):
    return fit_twin(jnp.zeros(4), data, 500)
