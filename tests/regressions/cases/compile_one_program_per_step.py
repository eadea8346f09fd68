# ruff: noqa: B023 (the closures over the loop variable are the subject)
"""JAX401/JAX404: a recompile finding needs a value that provably changes the program between
calls; silent where each step needs its own program anyway (issue 23, "compile").

Reduced from the tuning half of the fresh corpus (precision v3):
- google-deepmind/tapnet tapnet/robotap/tapir_clustering.py:624-745: `if need_compile:` rebuilds
  the jitted update only when the number of categories changed (a memo, not every step);
- google-deepmind/tapnet tapir_clustering.py:780-785: `np.arange(i, min(n, i + 128))` is a
  window of one length (the tail aside), not a growing shape;
- google/learned_optimization time_filter/timings.py:148-184 and 309-321: the loop over
  `num_tasks_list` reaches `jnp.zeros([num_tasks])` and `random.split(key, num_tasks)` in the
  called functions: every step is a new batch size, so a new program;
- ott-jax/ott docs/tutorials/linear/400_Hessians.ipynb cell 10: the loop value `imp` reaches
  `if implicit:` in `loss` (another program), over a zip of two written-out settings.
The marked lines are the true positives kept next to each near miss.
"""

import functools

import jax
import jax.numpy as jnp
import numpy as np


def update(state, x, num_cats):
    return state + jnp.zeros(num_cats).sum() + x


def train(state, data, num_iters, forks):
    num_cats = 1
    need_compile = True
    for step in range(num_iters):
        if step in forks:
            num_cats += 1
            need_compile = True
        if need_compile:
            update_jit = jax.jit(functools.partial(update, num_cats=num_cats))
            need_compile = False
        state = update_jit(state, data)
    return state


def scale(state, x, lr):
    return state - lr * x


def train_each_step(state, data, lrs):
    for lr in lrs:
        step = jax.jit(functools.partial(scale, lr=lr))  # error: JAX401
        state = step(state, data)
    return state


@jax.jit
def pts_eval(state, idx):
    return state[idx]


def evaluate(state, n):
    out = []
    for i in range(0, n, 128):
        out.append(pts_eval(state, np.arange(i, min(n, i + 128))))
    for i in range(1, n):
        out.append(pts_eval(state, np.arange(0, i)))  # error: JAX404
    return out


def time_family(num_tasks):
    keys = jax.random.split(jax.random.PRNGKey(0), num_tasks)
    thetas = jnp.zeros([num_tasks])
    return jax.jit(lambda k, t: k.sum() + t.sum())(keys, thetas)


def time_scaled(scale_by):
    x = jnp.ones(8)
    return jax.jit(lambda v: v * 2.0)(x * scale_by)  # error: JAX401


def timings(num_tasks_list, scales):
    out = {}
    for num_tasks in num_tasks_list:
        out[num_tasks] = time_family(num_tasks)
    for s in scales:
        out[s] = time_scaled(s)
    return out


def loss(a, x, implicit=True):
    if implicit:
        return (a * x).sum()
    return (a + x).sum()


def hessians(a, x, methods):
    for imp, method in zip((False, True), methods):
        hess = jax.jit(jax.hessian(lambda a, x: loss(a, x, imp)))
        print(method, hess(a, x))
