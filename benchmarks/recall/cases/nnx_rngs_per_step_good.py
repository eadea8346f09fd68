# source: https://github.com/pwhofman/probly/pull/271
# family: prng
# The fix: one Rngs, built once, whose dropout stream advances on every call.
import jax.numpy as jnp
from flax import nnx


def noisy_forward(drop, x):
    return drop(x)


if __name__ == "__main__":
    drop = nnx.Dropout(0.5, rngs=nnx.Rngs(dropout=0))
    x = jnp.ones((4, 8))
    masks = [noisy_forward(drop, x) != 0 for _ in range(4)]
    print("same mask:", all(bool(jnp.all(m == masks[0])) for m in masks))
