"""A static argument drawn from a list that the step loop never rebuilds takes the same
values every step: one compile per element, then cache hits (enn
supervised/multiloss_experiment.py:145, `for t in self.pure_trainers:` inside the step loop,
which updates `self.step` and `self.state`, not `self.pure_trainers`). The twin rebuilds the
list in the loop: new objects every step.
"""

import jax


class Trainer:
    def __init__(self, loss_fn, dataset):
        self.loss_fn = loss_fn
        self.dataset = dataset


class Experiment:
    def __init__(self, trainers, state):
        self.trainers = trainers
        self.state = state
        self.step = 0
        self._sgd_step = jax.jit(self._impl, static_argnums=0)

    def _impl(self, loss_fn, state, batch):
        return state - 0.1 * jax.grad(loss_fn)(state, batch)

    def train(self, num_batches: int):
        for _ in range(num_batches):
            self.step += 1
            for t in self.trainers:
                self.state = self._sgd_step(t.loss_fn, self.state, next(t.dataset))

    def train_rebuilt(self, num_batches: int, make):
        for _ in range(num_batches):
            self.trainers = [make(i) for i in range(2)]
            for t in self.trainers:
                self.state = self._sgd_step(t.loss_fn, self.state, next(t.dataset))  # error: JAX403
