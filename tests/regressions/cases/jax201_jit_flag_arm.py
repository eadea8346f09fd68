"""JAX201 (and the tracing rules): in a def that `jax.jit` decorates, a parameter that is not
static and defaults to `False` (or `0`) is false in every call that does not raise: a caller
that passes it hands jit a Python bool, which jit traces, and `if stochastic:` on the tracer
raises TracerBoolConversionError. So the arm never runs and a draw in it consumes nothing
(analysis/param_constants.py `jit_flags`; the dataflow walker marks the arm infeasible for
the key flow and the taint alike; tests/runtime/test_jit_flags.py runs the fact).

Reduced from jinnessism/FlowMARL agents/discrete_macflow.py:208-222 (v34 check set, JAX201
high FP, tuning material): a jitted `sample_actions_train(self, observations, seed=None,
temperature=1.0, stochastic: bool = False)` draws noise from `action_seed` and splits it
again only under `if stochastic:`; its only caller leaves the flag at its default. The near
misses: the flag named static (then a caller's `True` runs the arm), a `True` default (then
`if not flag:` may run: a caller may pass None), a flag the body rebinds, `eqx.filter_jit`
(a Python bool stays static there) and a `jax.jit(f)` alias (plain calls of `f` are eager).
"""

from functools import partial

import equinox as eqx
import flax.struct
import jax


class Agent(flax.struct.PyTreeNode):
    rng: jax.Array

    def update(self, batch):
        return self.sample_actions_train(batch, seed=self.rng)

    @jax.jit
    def sample_actions_train(self, observations, seed=None, temperature=1.0, stochastic=False):
        seed = self.rng if seed is None else seed
        action_seed, _ = jax.random.split(seed)
        noises = jax.random.normal(action_seed, observations.shape)
        probs = jax.nn.softmax((observations + noises) / temperature, axis=-1)
        if stochastic:
            return jax.random.split(action_seed, probs.shape[0])
        if not stochastic and seed is not None:
            return probs.argmax(-1)
        return probs


@jax.jit
def act(key, obs, explore=0, debug=False):
    noise = jax.random.normal(key, obs.shape)
    if explore and obs.ndim > 1:
        noise = noise + jax.random.uniform(key, obs.shape)
    if debug:
        print(float(obs.sum()))
    return obs + noise


@partial(jax.jit, static_argnames=("stochastic",))
def act_static(key, obs, stochastic=False):
    noise = jax.random.normal(key, obs.shape)
    if stochastic:
        noise = noise + jax.random.uniform(key, obs.shape)  # error: JAX201
    return obs + noise


@jax.jit
def act_default_on(key, obs, greedy=True):
    noise = jax.random.normal(key, obs.shape)
    if not greedy:
        noise = noise + jax.random.uniform(key, obs.shape)  # error: JAX201
    return obs + noise


@jax.jit
def act_rebound(key, obs, stochastic=False):
    stochastic = stochastic or obs.ndim == 3
    noise = jax.random.normal(key, obs.shape)
    if stochastic:
        noise = noise + jax.random.uniform(key, obs.shape)  # error: JAX201
    return obs + noise


@eqx.filter_jit
def act_filtered(key, obs, stochastic=False):
    noise = jax.random.normal(key, obs.shape)
    if stochastic:
        noise = noise + jax.random.uniform(key, obs.shape)  # error: JAX201
    return obs + noise


def act_plain(key, obs, stochastic=False):
    noise = jax.random.normal(key, obs.shape)
    if stochastic:
        noise = noise + jax.random.uniform(key, obs.shape)  # error: JAX201
    return obs + noise


act_jitted = jax.jit(act_plain)
