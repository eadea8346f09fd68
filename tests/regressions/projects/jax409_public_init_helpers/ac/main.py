"""The driver of the case: it builds the trainer and trains; it resets the evaluator's
environment on a built object."""

import jax.numpy as jnp

from ac.ppo_train import Evaluator, PPOTrainer


def main(config):
    trainer = PPOTrainer(config)
    params = trainer.train(jnp.zeros(3), [jnp.ones((4, 3))] * 2)
    evaluator = Evaluator(config)
    first = evaluator.score(params)
    evaluator.reset_env({"width": 1})
    return first, evaluator.score(params)
