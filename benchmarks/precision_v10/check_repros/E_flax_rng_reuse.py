"""Rows: qiaosungithub/jax_llava jetformer predict_fns.py:32, train.py:202 (and givt generative.py:332/442).

Two separate `Module.apply(..., rngs={"dropout": k})` calls on methods that call
`self.make_rng("dropout")` at the root scope get the same derived key (same path,
same counter), so the draws are correlated.  A submodule's make_rng (a different path)
gets a different key.
"""

import flax.linen as nn
import jax
import jax.numpy as jnp


class M(nn.Module):
    def encode(self, x):
        return self.make_rng("dropout")

    def reparametrize(self, x):
        return self.make_rng("dropout")


class Inner(nn.Module):
    @nn.compact
    def __call__(self, x):
        return self.make_rng("dropout")


class Outer(nn.Module):
    @nn.compact
    def __call__(self, x):
        return Inner()(x)


k = jax.random.key(0)
m = M()
a = m.apply({}, 1.0, method=m.encode, rngs={"dropout": k})
b = m.apply({}, 1.0, method=m.reparametrize, rngs={"dropout": k})
c = Outer().apply({}, 1.0, rngs={"dropout": k})
print("root/root same key:", bool(jnp.all(jax.random.key_data(a) == jax.random.key_data(b))))
print("root/submodule same key:", bool(jnp.all(jax.random.key_data(a) == jax.random.key_data(c))))
