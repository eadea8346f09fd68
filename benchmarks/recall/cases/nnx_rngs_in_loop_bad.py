# source: https://github.com/Cortys/SEP-Probly-WS2526/issues/268
# family: prng
# expect: JAX202 JAX208 JAX201
# check: stdout:identical members: True
# An ensemble whose members are built in a loop, each from nnx.Rngs(0): every member has
# the same weights, so the ensemble is one model repeated.
import jax.numpy as jnp
from flax import nnx

if __name__ == "__main__":
    members = []
    for _ in range(3):
        members.append(nnx.Linear(4, 2, rngs=nnx.Rngs(0)))
    w = [m.kernel[...] for m in members]
    print("identical members:", all(bool(jnp.all(v == w[0])) for v in w))
