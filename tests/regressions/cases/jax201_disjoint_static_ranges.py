"""JAX201: two consumptions of one key under `if` blocks whose tests on a parameter the body
never rebinds admit no common value (`if branch <= 1:` ... `if branch == 2:`) never both run,
so one key serves the one that runs (analysis/flow/key_guards.py `exclusive_ranges`, numeric
ranges beside the literal guards of `exclusive_guards`).

Reduced from kenziyuliu/DP2 trainers/dp2_adagrad.py:36-74 (v32 check set, FP, tuning
material, x4): `batch_update` is jitted with `branch` static, and the comment says "noising
happens once at either branch == 0 or 2, so one `key` is enough". The near miss: ranges that
share a value (`branch <= 1` and `branch >= 1` both hold for 1).
"""

from functools import partial

import jax
from jax import random


def privatize_grad(grads, key, clip):
    keys = random.split(key, 2)
    return grads + clip * random.normal(keys[0], grads.shape)


@partial(jax.jit, static_argnums=(0,))
def batch_update(branch, iter_idx, key, grads):
    key = random.fold_in(key, iter_idx)
    final = grads
    if branch <= 1:
        final = privatize_grad(grads, key, 1.0)
    if branch == 2:
        final = privatize_grad(grads * 2.0, key, 0.5)
    if 3 < branch:
        final = final - 1.0
    else:
        final = final + 1.0
    return final


@partial(jax.jit, static_argnums=(0,))
def overlapping(branch, key, grads):
    out = grads
    if branch <= 1:
        out = privatize_grad(grads, key, 1.0)
    if branch >= 1:
        out = privatize_grad(out, key, 0.5)  # error: JAX201
    return out
