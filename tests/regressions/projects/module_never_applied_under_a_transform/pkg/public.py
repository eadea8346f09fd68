"""A package's Modules are its API: users apply them under jit outside the project, so a
Module of a package keeps the assumption even when nothing here applies it."""

import flax.linen as nn


class Clip(nn.Module):
    @nn.compact
    def __call__(self, x):
        if x.max() > 1.0:  # error: JAX110
            return x / x.max()
        return x
