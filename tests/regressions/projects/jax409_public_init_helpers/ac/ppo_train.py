"""Justin-Tan/ac_jax ac_jax/ppo_train.py:300-530 and evolution/mcts_evaluation.py, reduced (v23
rows, tuning material, JAX409 x5; JAX-DIPS `initialize_*` in v21, x4): a trainer jits its
methods with `self` static and finishes its construction in public methods that only
`__init__` calls (`init_env`, `init_network_and_optimiser`); no module of the project calls
them on a trainer, so nothing changes after construction (analysis/instance_state.py, the
`ConstructionOnly` seeds from `ModuleSummary.init_methods` and `method_calls`). The near
miss: `Evaluator.reset_env` is called by the driver on a built object, so its stores can
make the compiled `score` stale."""

from functools import partial

import jax
import jax.numpy as jnp


class PPOTrainer:
    def __init__(self, config):
        self.config = config
        self.init_env(config)
        self.init_network_and_optimiser(config)

    def init_env(self, config):
        self.num_envs = config["num_envs"]
        self.horizon = config["horizon"]

    def init_network_and_optimiser(self, config):
        self.scale = config["lr"] * self.num_envs

    @partial(jax.jit, static_argnums=(0,))
    def update(self, params, batch):
        return params - self.scale * jnp.mean(batch[: self.horizon], axis=0)

    def train(self, params, batches):
        for batch in batches:
            params = self.update(params, batch)
        return params


class Evaluator:
    def __init__(self, config):
        self.reset_env(config)

    def reset_env(self, config):
        self.width = config["width"]

    @partial(jax.jit, static_argnums=(0,))
    def score(self, x):  # error: JAX409
        return jnp.sum(x[: self.width])
