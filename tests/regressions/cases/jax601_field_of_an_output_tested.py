"""JAX601: a Python `if` on a field of a value the timed region computed (`if
neighbors.did_buffer_overflow:` right after the loop) converts it to a host bool, so the host
waits for the computation before the clock is read (analysis/sync.py `truth_test_waits`: an
attribute of a held value, as a comparison of it already was).

Reduced from fabiannagel/gknet-benchmarks md-benchmarks/jax_nve_nl.py:90-103 (v32 check set,
FP, tuning material): a jax-md neighbour list's overflow flag is tested after each batch of
`fori_loop` steps, before `time.monotonic()`. The near miss: the same loop timed with only the
field's metadata read (`.shape`), which waits for nothing.
"""

import time

import jax
import jax.numpy as jnp
from jax import lax


class Neighbors:
    def __init__(self, idx, overflow):
        self.idx = idx
        self.did_buffer_overflow = overflow


jax.tree_util.register_pytree_node(
    Neighbors, lambda n: ((n.idx, n.did_buffer_overflow), None), lambda _, c: Neighbors(*c)
)


def step_fn(i, carry):
    state, neighbors = carry
    return state + 1.0, Neighbors(neighbors.idx + 1, neighbors.idx.sum() > 100)


def run(state, neighbors, steps):
    times = []
    for _ in range(steps):
        start = time.monotonic()
        state, neighbors = lax.fori_loop(0, 10, step_fn, (state, neighbors))
        if neighbors.did_buffer_overflow:
            continue
        times.append(time.monotonic() - start)
    return times


def run_unsynced(state, neighbors, steps):
    times = []
    for _ in range(steps):
        start = time.monotonic()
        state, neighbors = lax.fori_loop(0, 10, step_fn, (state, neighbors))  # error: JAX601
        if neighbors.did_buffer_overflow.shape:
            continue
        times.append(time.monotonic() - start)
    return times


if __name__ == "__main__":
    print(run(jnp.zeros(3), Neighbors(jnp.zeros(4), jnp.array(False)), 2))
