"""An attribute of a traced argument whose class nobody here declares is of unknown kind
(`Level.FIELD`), not traced: it may be auxiliary data, a Python value under jit.

From the v12/v13 check sets (tracing false positives, read in context):
- recurrl-jax `examples/leap_hand/env.py:727`: `jnp.zeros((num_envs, mjx_model.nu))`, where
  `nu: int` is a static field of `mujoco.mjx.Model` (mjx registers only its array fields as
  leaves): JAX120 on a Python int;
- lerobot-jax `agents/tdmpc2_jax_v1.py:824/834`: `agent = agent.update_eval_state(...)` (a
  method of code nobody here sees, given a traced batch) then `if agent.cfg.n_action_repeats
  > 1:` and `actions[:, : agent.cfg.n_action_steps]` on the agent's static config: JAX110 and
  JAX120;
- jax-llm-examples `serving/attention_cache_utils.py:321`: `cache.sizes[l]`, a
  `metadata=dict(static=True)` field of a class of another file: JAX120.

The twins (still reported): a leaf of a pytree class of this module (`flax.struct` field,
NamedTuple field, a property computed from a leaf) is traced, as is a jax.numpy result of any
of them. Checked with JAX 0.12: `twin_leaf` (both `if`s) raises TracerBoolConversionError,
`twin_namedtuple` ConcretizationTypeError, and `twin_jnp_of_unknown` ConcretizationTypeError
even with `agent` static (under jit every jax.numpy result is a tracer).
"""

from typing import NamedTuple

import jax
import jax.numpy as jnp
from flax import struct


@jax.jit
def reset(mjx_model, key):
    ctrl = jnp.zeros((4, mjx_model.nu))
    return ctrl + jax.random.normal(key, ctrl.shape)


@jax.jit
def sample_actions(agent, batch):
    agent = agent.update_eval_state(observations=batch)
    actions = agent.sample(batch)
    if agent.cfg.n_action_repeats > 1:
        actions = jnp.repeat(actions, 2, axis=0)
    return actions[:, : agent.cfg.n_action_steps]


@jax.jit
def gather(cache, layer):
    size = cache.sizes[layer]
    return jnp.arange(size) + cache.pages[layer]


@struct.dataclass
class TrainState:
    step: jax.Array
    params: dict

    @property
    def warm(self):
        return self.step > 100


class Box(NamedTuple):
    lo: jax.Array
    hi: jax.Array


@jax.jit
def twin_leaf(state: TrainState, x):
    if state.step % 10 == 0:  # error: JAX110
        x = x * 2
    if state.warm:  # error: JAX110
        x = x + 1
    return x


@jax.jit
def twin_namedtuple(box, x):
    return jnp.arange(box.hi - box.lo) + x  # error: JAX120


@jax.jit
def twin_jnp_of_unknown(agent, x):
    total = jnp.exp(agent.cfg.scale)
    return x * float(total)  # error: JAX101
