"""Two facts of parameter kinds (v14 tuning half, JAX120 x5):

- a parameter annotated with another module's class by a string (`topology: "SarcTopology"`)
  names that class as an unquoted annotation does: its attributes are of unknown kind, not
  whatever some class of this module declares under the same name (multifil_jax
  `core/state.py:225-228`: `n_crowns` is aux data of `SarcTopology`, a leaf of this module's
  `PreconditionerParams`);
- `vmap(f, in_axes=(0, 0, 0))` passes exactly three positional arguments, however it is called
  (`lambda *args: vmap(f, in_axes=...)(*args)`): a fourth, defaulted parameter keeps its Python
  default (circuitmap `simulation.py:323`, `response_length=900`).

The twins (run with JAX 0.12, both raise TypeError "Shapes must be 1D sequences of concrete
values"): an unannotated parameter whose attribute is a leaf of this module's NamedTuple, and
a defaulted parameter the `in_axes` does cover.
"""

from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import vmap

from .sarc_geometry import SarcTopology  # noqa: F401


class PreconditionerParams(NamedTuple):
    n_crowns: int
    diag: jax.Array


@jax.jit
def realize_state(topology: "SarcTopology", x):
    n_crowns = topology.n_crowns
    return jnp.zeros((2, n_crowns)) + x


@jax.jit
def twin_leaf(counts, x):
    return jnp.zeros((2, counts.n_crowns)) + x  # error: JAX120


def _resp(spike, weight, kernel, response_length=900):
    return jnp.zeros(response_length) + spike * weight * kernel


get_resp = jax.jit(lambda *args: jnp.sum(vmap(_resp, in_axes=(0, 0, 0))(*args), axis=0))


def _resp_twin(spike, weight, response_length=900):
    return jnp.zeros(response_length) + spike * weight  # error: JAX120


get_twin = jax.jit(lambda *args: jnp.sum(vmap(_resp_twin, in_axes=(0, 0, 0))(*args), axis=0))
