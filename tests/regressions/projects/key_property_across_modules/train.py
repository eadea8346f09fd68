"""coax-dev/coax doc/examples/pendulum/sac.py:97, reduced (v29 check set, FP x12 over six
examples and their notebooks, tuning material now): `jax.random.bernoulli(q1.rng)` on every
step, where `rng` is a property of a mixin of another module that splits the object's key:
each read is a new key (`ModuleSummary.key_properties`, analysis/flow/key_attributes.py). A
key property defined here is computed too. The near misses: `self.key` of a class of this
module, a property that returns it, and a field a dataclass here declares are stored values
read twice (and checkpoint.py: a module that stores `.rng` itself keeps `state.rng` one
key)."""

import dataclasses

import jax
from agents import QFunction


def act(env, steps):
    q1 = QFunction(env)
    flips = []
    for _ in range(steps):
        flips.append(jax.random.bernoulli(q1.rng))
    return flips


class Sampler:
    def __init__(self, seed):
        self._key = jax.random.key(seed)

    @property
    def fresh(self):
        self._key, key = jax.random.split(self._key)
        return key

    def two(self):
        return jax.random.normal(self.fresh), jax.random.normal(self.fresh)


class Noise:
    def __init__(self, seed):
        self.key = jax.random.key(seed)

    @property
    def stored(self):
        return self.key

    def same(self):
        a = jax.random.normal(self.stored)
        b = jax.random.uniform(self.stored)  # error: JAX201
        return a, b

    def two(self):
        a = jax.random.normal(self.key)
        b = jax.random.uniform(self.key)  # error: JAX201
        return a, b


@dataclasses.dataclass
class State:
    noise_key: jax.Array
    step: int = 0


def noisy_steps(state: State, xs):
    out = []
    for x in xs:
        out.append(x + jax.random.normal(state.noise_key, x.shape))  # error: JAX201
    return out
