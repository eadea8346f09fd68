# source: https://github.com/jax-ml/jax/issues/170
# family: prng
# expect: JAX208
# check: stdout:same mask: True
# The user's "fix" for the dropout error: build the key from a fixed seed inside
# apply_fun, so every call drops the same units.
import jax.numpy as jnp
from jax import random
from jax.random import PRNGKey

seed = 0


def Dropout(rate):
    def apply_fun(params, inputs, **kwargs):
        rng = PRNGKey(seed)
        keep = random.bernoulli(rng, rate, inputs.shape)
        return jnp.where(keep, inputs / rate, 0)

    return apply_fun


if __name__ == "__main__":
    apply_fun = Dropout(0.5)
    x = jnp.ones((4, 8))
    masks = []
    for step in range(5):
        out = apply_fun((), x)
        masks.append(out != 0)
    print("same mask:", all(bool((m == masks[0]).all()) for m in masks))
