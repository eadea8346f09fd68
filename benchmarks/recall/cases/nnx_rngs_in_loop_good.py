# source: https://github.com/Cortys/SEP-Probly-WS2526/issues/268
# family: prng
# The fix: one Rngs for the ensemble; each member draws the next params key.
import jax.numpy as jnp
from flax import nnx

if __name__ == "__main__":
    rngs = nnx.Rngs(0)
    members = []
    for _ in range(3):
        members.append(nnx.Linear(4, 2, rngs=rngs))
    w = [m.kernel[...] for m in members]
    print("identical members:", all(bool(jnp.all(v == w[0])) for v in w))
