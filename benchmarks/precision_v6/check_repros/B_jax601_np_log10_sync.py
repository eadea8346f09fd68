"""jax3d mobilenerf stage1.py:1537 / stage2.py:1574, 1942: `np.log10(color_loss_l2[0])` on the pmap output
converts it to NumPy, which waits for the computation, before `time.time()` is read (so the timed region is synced).

The step below takes ~1 s of compute; without a sync the loop body would return in milliseconds.
"""

import time

import jax
import jax.numpy as jnp
import numpy as np


@jax.pmap
def train_pstep(state):
    def body(i, s):
        return jnp.sin(s @ s.T) @ s * 1e-3 + s

    state = jax.lax.fori_loop(0, 200, body, state)
    return state, jnp.mean(state**2)[None]


state = jnp.ones((1, 1000, 1000))
train_pstep(state)[1].block_until_ready()  # compile once
for with_np in (False, True):
    t = time.time()
    state2, loss = train_pstep(state)
    if with_np:
        v = -10.0 * np.log10(loss[0])
        print("type of the appended value:", type(v))
    dt = time.time() - t
    t2 = time.time()
    jax.block_until_ready((state2, loss))
    print(
        f"np.log10 in region={with_np}: timed {dt:.3f}s, left to wait after the region {time.time() - t2:.3f}s"
    )
