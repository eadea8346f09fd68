"""JAX201 "splits `self.key` but never stores the new key back" needs a method that may run
again on the same state: a public method (its user calls it again), or a private one that
this module calls from a per-draw method or in a loop. A private initialiser that only `fit`
(scikit-learn's contract: a re-fit starts over from `random_state`) or `__init__` calls, or
that a base class in another module calls, starts from the seed once per state.

Reduced from the tuning pool (v36 candidate naotoo1/prosemble, never linted by a check set):
`models/oc_gtlvq.py:161-166` and `svq_occ_t.py:207`, `_init_state` splitting `self.key`
(`self.key = jax.random.PRNGKey(random_seed)` in the base's `__init__`), called once per
`fit` by the base class. The marked lines are the true positives kept next to the near miss.
"""

import jax


class Subspace:
    def __init__(self, n_protos=3, random_seed=0):
        self.n_protos = n_protos
        self.key = jax.random.PRNGKey(random_seed)

    def _init_state(self, x):  # called by a base class elsewhere: once per fit
        key1, key2 = jax.random.split(self.key, 2)  # `key1` is the base class's
        return jax.random.normal(key2, (self.n_protos, x.shape[1]))


class Estimator:
    def __init__(self, random_seed=0):
        self.key = jax.random.PRNGKey(random_seed)

    def _init_params(self, x):
        k1, k2 = jax.random.split(self.key)
        return jax.random.normal(k2, x.shape)

    def fit(self, x):
        self.params_ = self._init_params(x)  # once per fit: the seed's start, by design
        return self


class Sampler:
    def __init__(self, seed=0):
        self.key = jax.random.PRNGKey(seed)

    def _draw(self, shape):
        key, sub = jax.random.split(self.key)  # error: JAX201
        return jax.random.normal(sub, shape)

    def sample(self, shape):
        return self._draw(shape)  # every call draws the same numbers


class Restarts:
    def __init__(self, seed=0):
        self.rng = jax.random.PRNGKey(seed)

    def fit(self, x, epochs):
        for _ in range(epochs):
            self.params_ = self._restart(x)  # error: JAX201
        return self

    def _restart(self, x):  # restarted every epoch from the same `self.rng`
        rng, sub = jax.random.split(self.rng)
        return jax.random.normal(sub, x.shape)
