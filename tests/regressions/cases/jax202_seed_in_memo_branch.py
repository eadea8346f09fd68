"""JAX202: a key from a constant seed made in a loop, but under an `if` whose branch sets what
its test reads (`if not hasattr(self, "proj"): self.proj = ...`): made on the first step only,
a memo, not a key recreated every step.

Reduced from the tuning pool (v36 candidate anachroni-co/capibaraGPT_v3, never linted by a
check set): `jax/tpu_v4/neuromorphic_kernels.py:105-115`, a reservoir's input projection drawn
once from `PRNGKey(123)` (and its copy in anachroni-co/cunca). The twin: the same draw
without the memo test, every step.
"""

import jax.numpy as jnp
from jax import random


class Reservoir:
    def __init__(self, n=8):
        self.n = n
        self.w = jnp.eye(n) * 0.5

    def run(self, spikes):
        state = jnp.zeros((spikes.shape[0], self.n))
        for t in range(spikes.shape[1]):
            if not hasattr(self, "input_projection"):
                key_proj = random.PRNGKey(123)
                self.input_projection = random.normal(key_proj, (spikes.shape[2], self.n))
            state = jnp.tanh(state @ self.w + spikes[:, t] @ self.input_projection)
        return state

    def run_noisy(self, spikes):
        state = jnp.zeros((spikes.shape[0], self.n))
        for _step in range(spikes.shape[1]):
            key_noise = random.PRNGKey(7)  # error: JAX202
            state = state + random.normal(key_noise, state.shape)
        return state
