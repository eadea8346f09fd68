"""JAX201: a key consumed under `if epoch == 1 and step == 0:`, `step` the counter of
`enumerate`, runs on one step of the whole training.

Reduced from ShujaKhalid/deq-jax train.py:338-340 (v26 check set, FP, tuning material now):
`state = updater.init(rng, data)` sits under `if (epoch == 1 and step == 0):` inside
`for epoch in range(1, E):` and `for step, (x, y) in enumerate(loader):`. An `enumerate`
counter takes each int once, as a `range` target does (analysis/loops.py
`_enumerate_counter`), and `epoch == 1` selects one step of the outer loop, so the key is
consumed once. The marked lines are the near misses: under `if step == 0:` alone the
initialiser runs on the first step of every epoch with the same key (reported against the
outer loop, which does not rebind it), and under `if step > 0:` on every step but one.
"""

import jax


def train(rng, loader, epochs, updater):
    state = None
    for epoch in range(1, epochs):
        for step, (x, y) in enumerate(loader):
            if epoch == 1 and step == 0:
                state = updater.init(rng, x)
            state = updater.update(state, x, y)
    return state


def train_every_epoch(rng, loader, epochs, updater):
    state = None
    for _ in range(epochs):
        for step, x in enumerate(loader):
            if step == 0:
                state = updater.init(rng, x)  # error: JAX201
            state = updater.update(state, x)
    return state


def noisy(rng, loader):
    out = []
    for step, batch in enumerate(loader):
        if step > 0:
            out.append(batch + jax.random.normal(rng, batch.shape))  # error: JAX201
    return out
