# source: https://github.com/google/flax/pull/2631
# family: prng
# expect: JAX201 JAX202
# check: stdout:same mask: True
# The draft Flax dropout tutorial passed the one `dropout_key` to every training step;
# the review: "you need to split a different key on each step so that different
# activation happens". Every step drops the same units.
import flax.linen as nn
import jax
import jax.numpy as jnp


class MyModel(nn.Module):
    @nn.compact
    def __call__(self, x, training: bool):
        x = nn.Dense(8)(x)
        return nn.Dropout(rate=0.5, deterministic=not training)(x)


@jax.jit
def forward(params, x, dropout_key):
    return MyModel().apply(params, x, training=True, rngs={"dropout": dropout_key})


if __name__ == "__main__":
    root_key = jax.random.PRNGKey(0)
    main_key, params_key, dropout_key = jax.random.split(root_key, num=3)
    x = jnp.ones((1, 4))
    params = MyModel().init(params_key, x, training=False)
    masks = []
    for _ in range(2):
        masks.append(forward(params, x, dropout_key) == 0)
    print("same mask:", bool(jnp.all(masks[0] == masks[1])))
