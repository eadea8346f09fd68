"""A static argument `chunk = min(size, total - done)` where the loop advances `done` by
`chunk` (or steps it by `size` in `range(start, total, size)`) takes two values at most: the
chunk size on every step but the last, and the remainder (v19 rows, tuning material:
jax-quantum-research grover_simulation/20qubits.py:207-208 and its 30- and 36-qubit copies,
JAX403 x3; `PerStep._chunk_or_remainder`). The twin steps `done` by one, so the last `size`
steps each compile a new program."""

from functools import partial

import jax


@partial(jax.jit, static_argnums=(1,))
def run_steps(state, n):
    return jax.lax.fori_loop(0, n, lambda i, s: s * 2.0, state)


def simulate(state, total, every):
    itr = 0
    while itr < total:
        chunk = min(every, total - itr)
        state = run_steps(state, chunk)
        itr += chunk
    return state


def simulate_range(state, total, every):
    for itr in range(0, total, every):
        chunk = min(every, total - itr)
        state = run_steps(state, chunk)
    return state


def simulate_twin(state, total, every):
    for itr in range(total):
        chunk = min(every, total - itr)
        state = run_steps(state, chunk)  # error: JAX403
    return state
