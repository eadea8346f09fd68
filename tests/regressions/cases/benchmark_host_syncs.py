"""JAX601: any host synchronisation ends a timed region honestly (issue 13, "benchmarking").

Reduced from google/brax sac/train.py:567 (`assert size >= n`), google-research/vision_transformer
vit_jax/train.py:217 (`np.argmax(logits)`) and google-research/big_vision
discriminative_classifier.py:298 (a nested `def` between two clock reads is only defined).
The marked lines are the true positives kept next to each near miss.
"""

import time

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def f(x):
    return x * 2.0


def warm(x):
    f(x).block_until_ready()


def assert_syncs(x):
    t = time.time()
    size = jnp.sum(f(x))
    assert size >= 10
    return time.time() - t


def numpy_syncs(x):
    t = time.time()
    logits = f(x)
    best = np.argmax(logits, axis=-1)
    return time.time() - t, best


def condition_syncs(x):
    t = time.time()
    loss = f(x)
    if loss.sum() > 0 and loss[0] < 3:
        pass
    return time.time() - t


def format_syncs(x):
    t = time.time()
    loss = f(x)
    msg = f"loss {loss}"
    return time.time() - t, msg


def only_defines():
    t0 = time.monotonic()

    def count(x):
        correct = jnp.sum(x > 0)
        return correct

    fn = jax.jit(count)
    print("built in", time.monotonic() - t0)
    return fn


def identity_test_does_not_sync(x):
    t = time.time()
    out = f(x)  # error: JAX601
    if out is not None:
        pass
    return time.time() - t


def nothing_syncs(x):
    t = time.time()
    out = f(x)  # error: JAX601
    return time.time() - t, out


def derived_value_syncs(x):
    # dalle-mini tools/train/train.py:1523: the loss is formatted through a metrics dict
    t = time.time()
    loss = jnp.mean(f(x))
    metrics = {"loss": loss}
    desc = f"loss {metrics['loss']}"
    return time.time() - t, desc


def metadata_does_not_sync(x, like):
    # mesh-transformer-jax checkpoint.py:210: comparing shapes needs no computed value
    t = time.time()
    y = jax.device_put(x)  # error: JAX601
    assert y.shape == like.shape, f"bad shape {y.shape}"
    print(f"read in {time.time() - t:.3}s")
    return y


def progress_log(x, n):
    # brax training/agents/ppo/train.py:347/814: elapsed time since start, logged per iteration
    xt = time.time()
    state = f(x)
    for it in range(n):
        print("starting iteration", it, time.time() - xt)
        state = f(state)
    return state
