# source: https://github.com/patrick-kidger/equinox/pull/316
# family: prng
# The fix from the review: one key per example, mapped over axis 0.
import equinox as eqx
import jax
import jax.numpy as jnp


class Block(eqx.Module):
    linear: eqx.nn.Linear
    dropout: eqx.nn.Dropout

    def __init__(self, key):
        self.linear = eqx.nn.Linear(8, 8, key=key)
        self.dropout = eqx.nn.Dropout(0.5)

    def __call__(self, x, key):
        return self.dropout(self.linear(x), key=key)


if __name__ == "__main__":
    init_key, drop_key = jax.random.split(jax.random.PRNGKey(0))
    block = Block(init_key)
    xs = jnp.ones((4, 8))
    keys = jax.random.split(drop_key, xs.shape[0])
    out = jax.vmap(block, in_axes=(0, 0))(xs, keys)
    masks = out == 0
    print("same mask across batch:", bool(jnp.all(masks == masks[0])))
