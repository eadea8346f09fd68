# source: https://github.com/patrick-kidger/equinox/pull/316
# family: prng
# expect: JAX207
# check: stdout:same mask across batch: True
# The review of the BERT example: the dropout key is not split over the batch, so
# vmap(in_axes=None) hands every example the same key and the same dropout mask.
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
    out = jax.vmap(block, in_axes=(0, None))(xs, drop_key)
    masks = out == 0
    print("same mask across batch:", bool(jnp.all(masks == masks[0])))
