"""JAX409: a class that finishes its construction in name-mangled private helpers
(`self.__init_optimizer()` from `__init__`, and from there further helpers) sets those
attributes only while the object is built, so a method jitted with `self` static that reads
them never goes stale (analysis/instance_state.py `_construction_helpers`: `__init_x` is
private; only special methods such as `__call__` are left out).

Reduced from ml-jku/DIffUCO train.py:257-266 and :534-538 (v30 check set, FP, tuning
material): `__update_params` reads `self.opt_update`, set in `__init_optimizer`, which
`__init_optimizer_and_params` calls from `__init__`. The near miss: an attribute a public
method reassigns after construction, which the jitted method reads.
"""

from functools import partial

import jax


class Trainer:
    def __init__(self, lr):
        self.lr = lr
        self.__init_optimizer_and_params()

    def __init_optimizer_and_params(self):
        self.__init_optimizer()
        self.params = 0.0

    def __init_optimizer(self):
        self.opt_update = lambda g: -self.lr * g

    @partial(jax.jit, static_argnums=(0,))
    def __update_params(self, params, grads):
        return params + self.opt_update(grads)

    def step(self, grads):
        self.params = self.__update_params(self.params, grads)
        return self.params


class Annealed:
    def __init__(self, lr):
        self.lr = lr

    def anneal(self):
        self.lr = self.lr / 2

    @partial(jax.jit, static_argnums=(0,))
    def update(self, params, grads):  # error: JAX409
        return params - self.lr * grads
