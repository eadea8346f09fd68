"""JAX201: a key returned after a draw, whose only receiver is a parameter that the next call
folds with the step (`key = random.fold_in(key, iter_idx)`) before anything draws, is not
consumed again: `fold_in` derives a new key and consumes nothing (analysis/result_uses.py
`folded_only`, and `discarded_by_callers` for a def nested in the function that calls it).

Reduced from kenziyuliu/DP2 trainers/dp2_adagrad.py:36-109 (v32 check set, FP, tuning
material, x14 with its copies): the trainer's jitted `batch_update` folds the step into the
key it is given, draws through `privatize_grad`, and returns that key, which the training
loop passes back on the next step. The near misses: a receiver that splits the returned key
itself, and a loop that passes the returned key to a draw.
"""

import jax
from jax import random


def privatize_grad(grads, key, clip):
    keys = random.split(key, 2)
    return grads + clip * random.normal(keys[0], grads.shape)


class Trainer:
    def __init__(self, seed, steps):
        self.seed = seed
        self.steps = steps

    def train(self, grads):
        @jax.jit
        def batch_update(iter_idx, key, grads):
            key = random.fold_in(key, iter_idx)
            grads = privatize_grad(grads, key, 1.0)
            return grads, key

        key = random.PRNGKey(self.seed)
        noise = random.normal(key, grads.shape)
        for i in range(self.steps):
            grads, key = batch_update(i, key, grads + noise)
        return grads

    def train_split(self, grads):
        def update(key, grads):
            key, sub = random.split(key)
            grads = privatize_grad(grads, sub, 1.0)
            return grads, sub  # error: JAX201

        key = random.PRNGKey(self.seed)
        for _ in range(self.steps):
            grads, key = update(key, grads)
        return grads

    def train_draw(self, grads):
        def update(iter_idx, key, grads):
            key = random.fold_in(key, iter_idx)
            return privatize_grad(grads, key, 1.0), key  # error: JAX201

        key = random.PRNGKey(self.seed)
        for i in range(self.steps):
            grads, key = update(i, key, grads)
            grads = grads + random.normal(key, grads.shape)
        return grads
