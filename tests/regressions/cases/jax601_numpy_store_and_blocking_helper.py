"""A timed loop whose results are stored into a NumPy array is synchronised: NumPy copies
each value to the host (confirmasaurus exact_typeI.ipynb, `rates[start:end] = jitted(...)`;
cp_intervals.ipynb, `n_failures[i] = jnp.sum(...)`). A helper that blocks every leaf of what
it is given waits for it (ferminet-jax scripts/benchmark_train_step.py, `_block_tree`: `for
leaf in jax.tree_util.tree_leaves(tree): leaf.block_until_ready()`). The twins store into a
Python list (the list holds the pending arrays) and call a helper that only reads shapes."""

import time

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def step(x):
    return jnp.sum(x * 2.0)


def timed_into_numpy(xs):
    out = np.zeros(len(xs))
    t0 = time.perf_counter()
    for i, x in enumerate(xs):
        out[i] = step(x)
    return time.perf_counter() - t0, out


def _block_tree(tree):
    for leaf in jax.tree_util.tree_leaves(tree):
        leaf.block_until_ready()
    return tree


def timed_and_blocked(x):
    t0 = time.perf_counter()
    y = _block_tree(step(x))
    return time.perf_counter() - t0, y


def timed_into_list(xs):
    out = [None] * len(xs)
    t0 = time.perf_counter()
    for i, x in enumerate(xs):
        out[i] = step(x)  # error: JAX601
    return time.perf_counter() - t0, out


def _shapes(tree):
    for leaf in jax.tree_util.tree_leaves(tree):
        print(leaf.shape)
    return tree


def timed_not_blocked(x):
    t0 = time.perf_counter()
    y = _shapes(step(x))  # error: JAX601
    return time.perf_counter() - t0, y
