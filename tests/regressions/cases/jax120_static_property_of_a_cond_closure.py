"""Jhko725/NeuralConstitutiveEq.jl `curve_fit.py:116-134, 230-290` (v42 check set, JAX120 high,
read false): an `eqx.Module` state has a property `n_particles` that returns
`self.weights.shape[0]`, a Python int; a `lax.cond` branch closes over the traced `state` and
sizes `jnp.zeros(state.n_particles)` with it (the state came out of a `lax.cond`, an array to
the taint). A static property is a Python value whatever level the object it is read on got
(`TaintAnalysis._attribute` asks the pytree facts before the object's level). The near miss: a leaf of the state (`state.count`, an array) as the size."""

import equinox as eqx
import jax
import jax.numpy as jnp


class SMCState(eqx.Module):
    weights: jax.Array
    count: jax.Array
    lmbda: float

    @property
    def n_particles(self):
        return self.weights.shape[0]


def mutating_fn(key, state):
    def mutate():
        accepted = jnp.zeros(state.n_particles, dtype=jnp.bool_)
        return SMCState(jnp.where(accepted, 0.0, state.weights), state.count, state.lmbda)

    def grow():
        extra = jnp.zeros(state.count)  # error: JAX120
        return SMCState(state.weights + extra.sum(), state.count, state.lmbda)

    state = jax.lax.cond(state.lmbda < 1, mutate, lambda: state)
    return jax.lax.cond(state.lmbda < 2, grow, lambda: state)


def resampling_fn(state):
    return jax.lax.cond(state.lmbda >= 1, lambda: state, lambda: state)


@eqx.filter_jit
def step(key, state: SMCState):
    state = resampling_fn(state)  # a `lax.cond` result: the state is an array to the taint
    return mutating_fn(key, state)
