# source: https://github.com/google/flax/pull/2593
# family: prng
# expect: JAX201 JAX202
# check: stdout:same mask: True
# The dropout key goes to apply in rngs={"dropout": ...} unchanged on every training
# step: the same units are dropped every step (the review asks the guide to show one
# new key per step).
import flax.linen as nn
import jax
import jax.numpy as jnp


class Net(nn.Module):
    @nn.compact
    def __call__(self, x, train):
        x = nn.Dense(8)(x)
        return nn.Dropout(0.5, deterministic=not train)(x)


if __name__ == "__main__":
    root = jax.random.PRNGKey(0)
    params_key, dropout_key = jax.random.split(root)
    model = Net()
    x = jnp.ones((2, 8))
    params = model.init(params_key, x, train=False)
    masks = []
    for step in range(4):
        out = model.apply(params, x, train=True, rngs={"dropout": dropout_key})
        masks.append(out == 0)
    print("same mask:", all(bool(jnp.all(m == masks[0])) for m in masks))
