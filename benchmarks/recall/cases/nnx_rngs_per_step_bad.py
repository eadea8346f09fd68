# source: https://github.com/pwhofman/probly/pull/271
# family: prng
# expect: JAX208 JAX202 JAX201
# check: stdout:same mask: True
# The dropout stream is rebuilt from a fixed seed inside the per-step function:
# every step drops the same units.
import jax.numpy as jnp
from flax import nnx


def noisy_forward(x):
    rngs = nnx.Rngs(dropout=0)
    drop = nnx.Dropout(0.5, rngs=rngs)
    return drop(x)


if __name__ == "__main__":
    x = jnp.ones((4, 8))
    masks = [noisy_forward(x) != 0 for _ in range(4)]
    print("same mask:", all(bool(jnp.all(m == masks[0])) for m in masks))
