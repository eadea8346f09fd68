"""JAX601: a timed region ends at any host sync reached from its outputs (issue 23, "benchmarking").

Reduced from the tuning half of the fresh corpus (precision v3):
- google/evojax evojax/sim_mgr.py:292-302: `if all_done(valid_mask): break` reads a jitted
  result on the host every step, and `valid_mask` is an output of the same program as `scores`;
- google-deepmind/tapnet colabs/tapnext_demo.ipynb cells 10-12: the outputs are collected in a
  list and `np.stack`ed before the clock read;
- google/learned_optimization research/univ_nfn/gen_pred/train_pred.py:262-272: a nested
  `evaluate` reads the trained `theta` on the host (`np.asarray` of a prediction made from it);
- google/learned_optimization outer_trainers/gradient_learner.py:401-466:
  `jax.tree_util.tree_map(onp.asarray, out.task_param)` copies an output to the host.
The marked lines are the true positives kept next to each near miss.
"""

import time

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def update(scores, reward, mask):
    return scores + reward * mask, mask * 0.5


@jax.jit
def all_done(mask):
    return mask.sum() == 0


@jax.jit
def forward(x, state):
    return x * 2.0, state + 1.0


def warm(x):
    update(x, x, x)
    all_done(x).block_until_ready()
    forward(x, x)[0].block_until_ready()


def rollout(scores, rewards, mask):
    start = time.perf_counter()
    for reward in rewards:
        scores, mask = update(scores, reward, mask)
        if all_done(mask):
            break
    return time.perf_counter() - start, scores


def rollout_never_read(scores, rewards, mask):
    start = time.perf_counter()
    for reward in rewards:
        scores, mask = update(scores, reward, mask)  # error: JAX601
    return time.perf_counter() - start, scores


def collect_and_stack(frames, state):
    start = time.perf_counter()
    tracks = []
    for frame in frames:
        out, state = forward(frame, state)
        tracks.append(out)
    tracks = np.stack(tracks)
    return time.perf_counter() - start, tracks


def collect_only(frames, state):
    start = time.perf_counter()
    tracks = []
    for frame in frames:
        out, state = forward(frame, state)  # error: JAX601
        tracks.append(out)
    return time.perf_counter() - start, tracks


def train_then_evaluate(theta, data):
    def evaluate(dset):
        preds = []
        for example in dset:
            logit, _ = forward(theta, example)
            preds.append(np.asarray(jax.nn.sigmoid(logit)))
        return np.concatenate(preds)

    def keep(dset):
        return [theta for _ in dset]

    for _ in range(3):
        start = time.time()
        for example in data:
            theta, _ = forward(theta, example)
        evaluate(data)
        print(time.time() - start)
    for _ in range(3):
        start = time.time()
        for example in data:
            theta, _ = forward(theta, example)  # error: JAX601
        keep(data)
        print(time.time() - start)


def copied_to_host(params, state):
    start = time.time()
    out, state = forward(params, state)
    host = jax.tree_util.tree_map(np.asarray, {"out": out})
    elapsed = time.time() - start
    start = time.time()
    out, state = forward(params, state)  # error: JAX601
    shapes = jax.tree_util.tree_map(jnp.shape, {"out": out})
    return elapsed, time.time() - start, host, shapes
