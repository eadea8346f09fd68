"""evojax sim_mgr.py:296 (JAX601): `if all_done(valid_mask):` in the loop is a host read of an
output of the same jitted call that produced `scores`; the region is synchronised."""
import time

import jax
import jax.numpy as jnp


@jax.jit
def update_score_and_mask(score, reward, mask, done):
    return score + reward * mask, mask * (1 - done)


@jax.jit
def all_done(masks):
    return masks.sum() == 0


scores, valid_mask = jnp.zeros(4), jnp.ones(4)
all_done(update_score_and_mask(scores, scores, scores, scores)[1]).block_until_ready()  # warm up
start = time.perf_counter()
for i in range(10):
    scores, valid_mask = update_score_and_mask(scores, jnp.ones(4), valid_mask, jnp.zeros(4) + (i == 9))
    if all_done(valid_mask):
        break
print("steps/s", 10 / (time.perf_counter() - start))
