"""mickyals/jax_research_template src/core/embeddings.py:893-960, reduced: a fixed sine/cosine
positional encoding built in `setup` (no parameter, no `make_rng`): its `init` draws nothing
from its key (checked with JAX 0.12: identical variables for PRNGKey(0) and PRNGKey(1)). The
near miss: a learned encoding (`self.param` with `normal()`) draws its table from the key."""

import flax.linen as nn
import jax.numpy as jnp


class SinusoidalPosEncoding(nn.Module):
    d_model: int
    max_len: int = 64

    def setup(self):
        position = jnp.arange(0, self.max_len, dtype=jnp.float32)[:, None]
        div_term = jnp.exp(jnp.arange(0, self.d_model, 2, dtype=jnp.float32) * -0.1)
        pe = jnp.zeros((self.max_len, self.d_model), dtype=jnp.float32)
        self.pe = pe.at[:, 0::2].set(jnp.sin(position * div_term))[None]

    def __call__(self, x):
        return x + self.pe[:, : x.shape[1]]


class LearnedPosEncoding(nn.Module):
    d_model: int
    max_len: int = 64

    @nn.compact
    def __call__(self, x):
        pe = self.param("pe", nn.initializers.normal(0.02), (1, self.max_len, self.d_model))
        return x + pe[:, : x.shape[1]]


class LearnedBias(nn.Module):
    """Near miss: another learned module whose parameter has the same path and shape as
    `LearnedPosEncoding`'s: `init` on the same key gives the same table."""

    d_model: int
    max_len: int = 64

    @nn.compact
    def __call__(self, x):
        pe = self.param("pe", nn.initializers.normal(0.02), (1, self.max_len, self.d_model))
        return x * pe[:, : x.shape[1]]
