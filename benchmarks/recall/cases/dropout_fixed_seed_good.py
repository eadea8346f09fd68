# source: https://github.com/jax-ml/jax/issues/170
# family: prng
# The fix from the thread: pass a fresh key into every call.
import jax.numpy as jnp
from jax import random


def Dropout(rate):
    def apply_fun(params, inputs, rng):
        keep = random.bernoulli(rng, rate, inputs.shape)
        return jnp.where(keep, inputs / rate, 0)

    return apply_fun


if __name__ == "__main__":
    apply_fun = Dropout(0.5)
    x = jnp.ones((4, 8))
    key = random.PRNGKey(0)
    masks = []
    for step in range(5):
        key, subkey = random.split(key)
        out = apply_fun((), x, subkey)
        masks.append(out != 0)
    print("same mask:", all(bool((m == masks[0]).all()) for m in masks))
