"""Settle rows 42-43 (aobled trainer.py:259, utils.py:130, JAX110): under jit,
`state.batch_stats is not None and state.batch_stats != {}` compares a pytree container
with an empty dict; the comparison is decided by the container (length/keys), never by
calling bool() on a traced leaf."""

import jax
import jax.numpy as jnp
from flax import struct
from flax.core import FrozenDict


@struct.dataclass
class State:
    params: dict
    batch_stats: object = None


@jax.jit
def step(state):
    out = jnp.sum(state.params["w"])
    if state.batch_stats is not None and state.batch_stats != {}:
        out = out + jnp.sum(state.batch_stats["bn"]["mean"])
    return out


for bs in (None, {}, {"bn": {"mean": jnp.ones(3)}}, FrozenDict({"bn": {"mean": jnp.ones(3)}})):
    try:
        print(type(bs).__name__, step(State(params={"w": jnp.ones(2)}, batch_stats=bs)))
    except Exception as e:  # noqa: BLE001
        print(type(bs).__name__, type(e).__name__, str(e).splitlines()[0][:120])
