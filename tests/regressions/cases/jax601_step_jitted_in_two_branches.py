"""JAX601: a step bound in two branches, `jax.pmap(...)` in one and `jax.jit(...)` in the
other, dispatches whichever runs: the timing walk follows its outputs like those of any
jitted step (`analysis/values.assigned_values`), so a host read of one output in every step
(`np.array(logits)`) waits for the step, and only a trailing `jnp.sum` of another output of
that step is left pending (honest).

Reduced from karannb/jax-pt-mamba main.py:454 (v20 check set, FP, tuning material: the
training loop's `trainStep_` was bound in two branches, so its results were not followed).
The marked line is a near miss that the walk now sees too: a timed loop over the same step
that never waits. A name bound to a plain function in one branch stays unknown (silent).
"""

import time
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


def train_step(state, batch, dist):
    logits = batch @ state
    return state - 0.1, jnp.mean(logits), logits


def run(state, loader, dist):
    if dist:
        step = jax.pmap(partial(train_step, dist=True), axis_name="device")  # error: JAX301
    else:
        step = jax.jit(partial(train_step, dist=False))

    preds, losses = [], []
    start = time.time()
    for batch in loader:
        state, loss, logits = step(state, batch)
        if dist:
            loss = jnp.sum(loss)
        losses.append(loss)
        preds.append(np.array(logits))
    took = time.time() - start

    start = time.time()
    for batch in loader:
        state, loss, logits = step(state, batch)  # error: JAX601
    return took, time.time() - start


def maybe_eager(state, loader, compiled):
    if compiled:
        step = jax.jit(partial(train_step, dist=False))
    else:
        step = partial(train_step, dist=False)
    start = time.time()
    for batch in loader:
        state, loss, logits = step(state, batch)
    return state, time.time() - start
