"""`init` of a flax Module that draws nothing does not consume its key (mickyals/
jax_research_template src_test/core/test_embeddings.py:614, test_mlp.py:513): a fixed
sine/cosine bank built in `setup`, a LayerNorm (ones and zeros), a wrapper that only
normalises and concatenates create no parameter with a random initialiser and call no
`make_rng`, so `init` gives the same variables for any key, and the key drawn from once
before is not reused (flow/key_drawfree.py; checked with JAX 0.12: `init` with PRNGKey(0) and
PRNGKey(1) gives identical variables). The near misses: a module with one `nn.Dense`, a
LayerNorm whose scale starts from `normal()`, a module whose submodule is a field passed in
(unknown: may draw). The other consumption is a drawing module's `init` on the same key:
a `jax.random` draw there would be independent of any flax `init` (flax folds in module
paths: `KeyDraws.folds_module_paths`), and an example input drawn only for `init` is read
for its shape (analysis/shape_only.py)."""

import flax.linen as nn
import jax
import jax.numpy as jnp


class SinusoidalPosEncoding(nn.Module):
    d_model: int
    max_len: int = 64

    def setup(self):
        position = jnp.arange(0, self.max_len, dtype=jnp.float32)[:, None]
        div_term = jnp.exp(jnp.arange(0, self.d_model, 2, dtype=jnp.float32) * -0.1)
        pe = jnp.zeros((self.max_len, self.d_model), dtype=jnp.float32)
        pe = pe.at[:, 0::2].set(jnp.sin(position * div_term))
        self.pe = pe[None]

    def __call__(self, x):
        return x + self.pe[:, : x.shape[1]]


class NormedConcat(nn.Module):
    spatial_dim: int

    def setup(self):
        self.norm = nn.LayerNorm()
        self.bias = self.param("bias", nn.initializers.zeros, (8,))

    def __call__(self, x):
        bias = self.bias
        return jnp.concatenate([nn.relu(self.norm(x)), x[:, : self.spatial_dim] + bias[0]], -1)


class Head(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(x)


class Wrapper(nn.Module):
    embedding: nn.Module

    def __call__(self, x):
        return self.embedding(x)


def fixed_encoding():
    key = jax.random.PRNGKey(0)
    x = jnp.ones((2, 16, 8))
    enc = SinusoidalPosEncoding(d_model=8)
    variables = enc.init(key, x)
    head = Head().init(key, x)
    return enc.apply(variables, x), head


def norms():
    key = jax.random.PRNGKey(0)
    x = jnp.ones((4, 8))
    a = NormedConcat(2).init(key, x)
    b = nn.LayerNorm().init(key, x)
    c = nn.GroupNorm(num_groups=2).init(key, x)
    return a, b, c, Head().init(key, x)


def dense_head():
    key = jax.random.PRNGKey(0)
    x = jnp.ones((4, 8))
    actor, critic = Head(), Head()
    first = actor.init(key, x)
    return first, critic.init(key, x)  # error: JAX201


def random_scale():
    key = jax.random.PRNGKey(0)
    x = jnp.ones((4, 8))
    scale = nn.LayerNorm(scale_init=nn.initializers.normal()).init(key, x)
    return scale, Head().init(key, x)  # error: JAX201


def passed_submodule():
    key = jax.random.PRNGKey(0)
    x = jnp.ones((4, 8))
    wrapped = Wrapper(embedding=Head()).init(key, x)
    return wrapped, Head().init(key, x)  # error: JAX201
