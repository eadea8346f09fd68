"""JAX409 FP: a method jitted with `self` static is stale only if an attribute it reads changes
after the object is built. Here the attributes that change are never read by the jitted methods
(`SAC` bumps a step counter and stores the train states it passes as arguments; `Policy`
stores parameters that `act` takes as an argument), and `Planner` finishes construction in a
private helper that only `__init__` calls.

From young-geng/JaxCQL JaxCQL/sac.py:102-110, JaxCQL/model.py:152-167 and FLAIROx/JaxMARL
jaxmarl/environments/overcooked_v2/utils.py:107-139 (also JaxCQL/conservative_sac.py:121-129,
jaxmarl/viz/overcooked_v2_visualizer.py:72-123).
"""
from functools import partial

import jax
import jax.numpy as jnp


class SAC(object):
    def __init__(self, scale):
        self.scale = scale
        self._train_state = jnp.zeros(3)
        self._total_steps = 0

    def train(self, batch):
        self._total_steps += 1
        self._train_state = self._train_step(self._train_state, batch)
        return self._train_state

    @partial(jax.jit, static_argnames="self")
    def _train_step(self, train_state, batch):
        return train_state + self.scale * batch


class Policy(object):
    def __init__(self, temperature):
        self.temperature = temperature
        self.params = None

    def update_params(self, params):
        self.params = params
        return self

    @partial(jax.jit, static_argnames=("self", "deterministic"))
    def act(self, params, observations, deterministic):
        out = observations @ params
        return out if deterministic else out / self.temperature

    def __call__(self, observations, deterministic=False):
        return self.act(self.params, observations, deterministic)


class Planner:
    def __init__(self, area):
        self._precompute(area)

    def _precompute(self, area):
        self.table = jnp.cumsum(area)
        self.offset = area.shape[0]

    @partial(jax.jit, static_argnums=(0,))
    def lookup(self, i):
        return self.table[i] + self.offset


sac = SAC(0.5)
print(sac.train(jnp.ones(3)), sac.train(jnp.ones(3)))
policy = Policy(2.0).update_params(jnp.eye(3))
print(policy(jnp.ones((2, 3))))
print(Planner(jnp.arange(4.0)).lookup(2))
