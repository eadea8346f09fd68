"""JAX601: a region whose host waited for its compiled work, and which leaves pending only
trailing array bookkeeping (an eager `jnp` reduction of a result it already waited for, a
fill of a constant), times that work, not dispatch.

Reduced from dsubhasish09/Infoprop-JAX eval_scripts/video_eval.py:196 (v25 check set, FP,
tuning material): a reset's parts are read with `np.array`, and only a `jnp.concatenate` of
other parts of it is pending at the clock read; from karannb/jax-pt-mamba main.py:454 (v20,
FP): `np.array(logits)` waits for each step, and only `loss = jnp.sum(loss)` of the same
step is pending (karannb's own line stays reported: its step is bound in two branches, jit
or pmap, and the walk does not follow that call's results); and from
danmackinlay/lambda_hat lambda_hat/sampling.py:208 (v26, FP): the warm-up's result is blocked
explicitly, and only a default `jnp.ones(D)` is pending (analysis/pending.py
`_only_trailing_work`). The marked lines are near misses: eager work on arrays made before
the region (`jnp.dot(a, w)`) is timed work, and a region where the host never waits measures
dispatch however small what it dispatches is.
"""

import time

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def train_step(state, batch):
    logits = batch @ state
    return state - 0.1, jnp.mean(logits), logits


def train(state, loader, dist):
    preds = []
    losses = []
    start = time.time()
    for batch in loader:
        state, loss, logits = train_step(state, batch)
        if dist:
            loss = jnp.sum(loss)
        losses.append(loss)
        preds.append(np.array(logits))
    end = time.time()
    return state, losses, preds, end - start


def adapt(run, key, d, steps):
    t0 = time.time()
    inv_mass = jnp.ones(d)
    if steps > 0:
        result = run(key, num_steps=steps)
        jax.block_until_ready(result)
        inv_mass = result[1]
    return inv_mass, time.time() - t0


def train_then_project(state, loader, w):
    start = time.time()
    for batch in loader:
        state, loss, logits = train_step(state, batch)
        print(float(loss))
        proj = jnp.dot(logits, w)  # error: JAX601
    end = time.time()
    return proj, end - start


def fill(d):
    t0 = time.time()
    x = jnp.ones(d)  # error: JAX601
    return x, time.time() - t0
