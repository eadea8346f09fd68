"""A key product a loop step binds and nothing in the loop reads (`state = updater.init(rng,
x)` on one step per epoch, the last value returned) repeats no numbers anyone sees twice
(`loop_products.product_unread_in_loop`). A local of the same name read by another function
is another variable: it no longer counts as a reader (it made the answer depend on an
unrelated function, so the editor's lint of the edited function alone differed from the
whole module's: tests/test_incremental.py, a random edit of
`key_loop_enumerate_counter_once.py`). The twin reads the product in the loop.
"""

import jax.random  # noqa: F401 (JAX201 runs on modules that mention random)


def train_every_epoch(rng, loader, epochs, updater):
    state = None
    for _ in range(epochs):
        for step, x in enumerate(loader):
            if step == 0:
                state = updater.init(rng, x)
    return state


def train_once(rng, loader, updater):
    state = updater.init(rng, loader)
    return state


def train_every_epoch_read(rng, loader, epochs, updater):
    state = None
    for _ in range(epochs):
        for step, x in enumerate(loader):
            if step == 0:
                state = updater.init(rng, x)  # error: JAX201
            state = updater.update(state, x)
    return state
