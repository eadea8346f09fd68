"""Registers rte.RTEcalc as a pytree (isofit-jax old/isojax.py:44-48), then uses it."""

import jax.numpy as jnp
from jax import tree_util
from rte import RTEcalc

tree_util.register_pytree_node(RTEcalc, RTEcalc._tree_flatten, RTEcalc._tree_unflatten)


def forward(x):
    return RTEcalc(jnp.ones(3), 2.0).radiance(x)
