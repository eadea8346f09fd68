"""JAX101/JAX110: an equinox Module whose `__call__` is the host loop around its own
compiled step is a trainer, not a model applied under jit.

Reduced from mlprt/feedbax feedbax/train.py:593-664 (v20 check set, FP x5, tuning material):
`TaskTrainer(eqx.Module).__call__` runs the training loop (progress bar, checkpoints) and
calls `self._train_step`, an `@eqx.filter_jit` method of the same class (aliased as
`train_step = self._train_step`), then reads each step's losses with `.item()` and an `if`.
A Module's `__call__` is assumed traced only because a model is applied under jit; a method
that uses its own compiled step is the host code around it (analysis/traced.py
`_runs_own_compiled_step`). The marked lines are the near miss: `Model.__call__` uses no
compiled method of its class, so it is still the forward pass a jitted `apply` traces.
"""

import equinox as eqx
import jax.numpy as jnp


class Trainer(eqx.Module):
    lr: float = 0.1

    def __call__(self, params, batches):
        train_step = self._train_step
        for batch in batches:
            params, loss = train_step(params, batch)
            print("loss", loss.item())
            if jnp.isnan(loss):
                break
        return params

    @eqx.filter_jit
    def _train_step(self, params, batch):
        loss = jnp.mean((params - batch) ** 2)
        return params - self.lr * (params - batch), loss


class Model(eqx.Module):
    scale: float = 2.0

    def __call__(self, x):
        y = x * self.scale
        print("norm", y.sum().item())  # error: JAX101
        return y
