"""Facts crossing a call of a plain object: `layer(x)` runs `Linear.__call__` (issue 13, recall).

Reduced from unifyai/ivy PR #16255 (benchmarks/recall/cases/np_asarray_module_bad.py): a
layer class with no bases converts its input with numpy's asarray; a jitted function builds
it and calls it on a traced array, so `np.asarray` gets a tracer. Before, only flax/equinox
Module instances were followed into `__call__`. Near misses: the same layer called with a
concrete array (`warmup`), and a class with an unknown base (it may be a framework object
whose `__call__` is not the code that runs) stay silent.
"""

import jax
import jax.numpy as jnp
import numpy as np
from somewhere import Base


class Linear:
    def __init__(self, w):
        self.w = w

    def __call__(self, x):
        x = np.asarray(x)  # error: JAX101
        return x @ self.w


class Wrapped(Base):
    def __call__(self, x):
        return np.asarray(x)


@jax.jit
def forward(params, x):
    layer = Linear(params)
    other = Wrapped()
    return jnp.tanh(layer(x)) + other(x).sum()


def warmup(params):
    layer = Linear(params)
    return layer(np.ones((2, 3)))
