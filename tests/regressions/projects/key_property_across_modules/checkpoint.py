"""The near miss of another module: `state.rng` of an object of an unknown class, in a module
that stores `.rng` itself (`state.rng = key`), is one stored key read twice, though a project
class defines a key property of that name (v23 and v25 rows: true reuses of a TrainState
field `state.rng`)."""

import jax


def restore(state, key):
    state.rng = key
    a = jax.random.normal(state.rng)
    b = jax.random.uniform(state.rng)  # error: JAX201
    return a, b
