"""cleanba legacy_scripts/cleanba_impala_envpool_impala_atari_wrapper.py:377 (JAX404, precision
v7 tuning half): `obs`, `actions` are appended in the rollout loop, passed to the jitted
`make_bulk_array`, then cut back to a window, `obs = obs[-args.async_update:]`, at the end of
every update: one or two lengths, so one or two compiles (real JAX: 1 compile over 10 steps).
A slice whose bound is the same on every step resets the length
(`loops.list_grows_per_step`); near misses whose window follows the step still fire."""

import jax
import jax.numpy as jnp


@jax.jit
def bulk(obs):
    return jnp.asarray(obs)


class Args:
    async_update = 1


def train(args, width):
    obs = []
    actions = []
    for _update in range(10):
        for _ in range(4 + int(len(obs) == 0)):
            obs.append(jnp.zeros(3))
            actions.append(jnp.zeros(1))
        bulk(obs)
        bulk(actions)
        obs = obs[-args.async_update :]
        actions = actions[: width * 2]


def grows(args):
    obs = []
    k = 1
    for _update in range(10):
        obs.append(jnp.zeros(3))
        obs.append(jnp.zeros(3))
        bulk(obs)  # error: JAX404
        k += 1
        obs = obs[-k:]


def halves():
    obs = []
    for _update in range(10):
        obs.append(jnp.zeros(3))
        obs.append(jnp.zeros(3))
        bulk(obs)  # error: JAX404
        obs = obs[-len(obs) // 2 :]
