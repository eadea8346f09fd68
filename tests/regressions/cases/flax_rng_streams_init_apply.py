"""A flax `init` keeps the variables, whose parameters come from the `"params"` stream; its
other streams (`"dropout"`) only draw for the forward pass whose output `init` discards.
`apply` makes no parameters and reads the other streams. So `v.init(rngs, x)` followed by
`v.apply(params, x, rngs=rngs)` with one dict `{"params": k1, "dropout": k2}` share nothing
that is kept (v14 tuning half, conceptofmind/vit-flax: 16 JAX201 rows, `vit_flax/cait.py:216`
and its siblings; `flow/keys.KeyFlow._streams`).

The twin: the same dict given to `apply` twice draws the same dropout masks (checked with
JAX 0.12 and flax: the two outputs drop the same units).
"""

import flax.linen as nn
import jax
import jax.numpy as jnp


class Net(nn.Module):
    @nn.compact
    def __call__(self, x, train=True):
        x = nn.Dense(4)(x)
        return nn.Dropout(0.5, deterministic=not train)(x)


def setup(x):
    k1, k2 = jax.random.split(jax.random.key(0))
    init_rngs = {"params": k1, "dropout": k2}
    v = Net().init(init_rngs, x)
    return Net().apply(v, x, rngs=init_rngs)


def twin(x):
    k1, k2 = jax.random.split(jax.random.key(0))
    rngs = {"params": k1, "dropout": k2}
    v = Net().init(rngs, x)
    a = Net().apply(v, x, rngs=rngs)
    b = Net().apply(v, x + 1.0, rngs=rngs)  # error: JAX201
    return a, b, jnp.all(a == b)
