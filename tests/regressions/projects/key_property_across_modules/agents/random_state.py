"""coax-dev/coax coax/_base/mixins/_random_state.py, reduced: `rng` is a property that splits
the object's key and returns the new half, so every read is a fresh key."""

import jax


class RandomStateMixin:
    @property
    def random_seed(self):
        return self._random_seed

    @random_seed.setter
    def random_seed(self, seed):
        self._random_seed = seed
        self._random_key = jax.random.key(seed)

    @property
    def rng(self):
        self._random_key, key = jax.random.split(self._random_key)
        return key
