"""A list passed to a jitted function, refilled to the same length every step: after each call
`storage = storage[-1:]` keeps one element and a loop of a fixed count appends (Stoix
`systems/ppo/sebulba/ff_ppo.py:260`, `impala/sebulba/ff_impala.py:240`,
`ff_impala_shared_torso.py:236`; a copy ran with `prepare._cache_size()` 1). The rebinding to
a fixed-length slice resets the length: the list does not grow between calls. The twins: no
reset, a reset that drops only the first element (`storage[1:]`) while two are appended, and
a reset with a count of appends that follows the loop variable.
"""

import jax
import jax.numpy as jnp


@jax.jit
def prepare(storage):
    return jnp.stack(storage)


def rollout(x, n, rollout_length):
    storage = []
    for _ in range(n):
        for _ in range(rollout_length + int(len(storage) == 0)):
            storage.append(x)
        out = prepare(storage)
        storage = storage[-1:]
    return out


def rollout_fresh(x, n):
    storage = []
    for _ in range(n):
        for _ in range(4):
            storage.append(x)
        out = prepare(storage)
        storage = []
    return out


def grows(x, n):
    storage = []
    for _ in range(n):
        storage.append(x)
        out = prepare(storage)  # error: JAX404
    return out


def drops_one(x, n):
    storage = []
    for _ in range(n):
        storage.append(x)
        storage.append(x)
        out = prepare(storage)  # error: JAX404
        storage = storage[1:]
    return out


def varying_count(x, n):
    storage = []
    for i in range(n):
        for _ in range(i + 1):
            storage.append(x)
        out = prepare(storage)  # error: JAX404
        storage = storage[-1:]
    return out
