"""Reduced from google-research/meliad transformer/position_t5.py:80-130 (JAX101 false
positive): `relative_positions_np` of another module returns a host NumPy array of Python
ints, so `np.abs(n)` is a trace-time NumPy computation, fine under jit. The near miss: a helper
whose result mixes in its (unannotated, traced) argument gives a tracer to `np.abs`."""

import flax.linen as nn
import jax
import numpy as np

from transformer import position


class Bias(nn.Module):
    num_keys: int = 4

    @nn.compact
    def __call__(self, num_queries, num_keys):
        relative_position = position.relative_positions_np(
            num_queries=num_queries, num_keys=num_keys
        )
        return self.bucket(relative_position)

    @staticmethod
    def bucket(relative_position):
        n = -relative_position
        return np.abs(n)


@jax.jit
def bias(x):
    relative_position = position.relative_positions_np(num_queries=x.shape[0], num_keys=4)
    n = -relative_position
    n = np.abs(n)
    return x + n


@jax.jit
def bias_of(x):
    n = -position.relative_positions_of(x)
    n = np.abs(n)  # error: JAX101
    return x + n
