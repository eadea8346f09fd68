# source: https://github.com/asantini29/phentax/pull/28
# family: host-conversion
# The fix (as merged): keep the duration a Python float and use math.ceil; T is static.
import math
from functools import partial

import jax
import jax.numpy as jnp


class Waveform:
    def __init__(self, delta_t):
        self.delta_t = delta_t

    def initial_processing(self, T):
        n_steps = math.ceil(T / self.delta_t)
        return jnp.linspace(0.0, T, n_steps)

    @partial(jax.jit, static_argnums=(0, 1))
    def __call__(self, T):
        times = self.initial_processing(T)
        return jnp.sin(times).sum()


if __name__ == "__main__":
    wf = Waveform(0.5)
    print(wf(4.0))
