"""dm-haiku examples/impala/learner.py:109 (JAX110): `jax.grad(self._loss)(params, batch)`
inside a method jitted with `static_argnums=0`: the bound method's `self` is not one of the
differentiated arguments, so `self._max_abs_reward > 0` is a Python comparison."""

import functools

import jax
import jax.numpy as jnp


class Learner:
    def __init__(self, max_abs_reward=0.0):
        self._max_abs_reward = max_abs_reward

    def _loss(self, theta, rewards):
        if self._max_abs_reward > 0:
            rewards = jnp.clip(rewards, -self._max_abs_reward, self._max_abs_reward)
        return jnp.sum(theta * rewards)

    @functools.partial(jax.jit, static_argnums=0)
    def update(self, params, rewards):
        return jax.grad(self._loss)(params, rewards)
