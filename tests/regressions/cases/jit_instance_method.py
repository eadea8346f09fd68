"""Facts crossing a bound method: `jax.jit(wf.__call__)` traces `Waveform.__call__` (issue 13).

Reduced from asantini29/phentax PR #28 (benchmarks/recall/cases/ceil_steps_bad.py): an
instance's method is jitted through the instance (`jax.jit(wf.__call__)`), and the method it
calls computes a step count with `int()` of the traced duration. Before, only `self.method`
was resolved. Near misses: the static twin (`static_argnums` on the decorated method) and
an instance of a class with an unknown base stay silent.
"""

import math
from functools import partial

import jax
import jax.numpy as jnp
from somewhere import Base


class Waveform:
    def __init__(self, delta_t):
        self.delta_t = delta_t

    def initial_processing(self, T):
        n_steps = int(jnp.ceil(T / self.delta_t))  # error: JAX101
        return jnp.linspace(0.0, T, n_steps)

    def __call__(self, T):
        return jnp.sin(self.initial_processing(T)).sum()


class StaticWaveform:
    def __init__(self, delta_t):
        self.delta_t = delta_t

    @partial(jax.jit, static_argnums=(0, 1))
    def __call__(self, T):
        return jnp.sin(jnp.linspace(0.0, T, math.ceil(T / self.delta_t))).sum()


class Framework(Base):
    def run(self, T):
        return int(T)


wf = Waveform(0.5)
out = jax.jit(wf.__call__)(4.0)
static = StaticWaveform(0.5)
out2 = static(4.0)
fw = Framework()
out3 = jax.jit(fw.run)(4.0)
