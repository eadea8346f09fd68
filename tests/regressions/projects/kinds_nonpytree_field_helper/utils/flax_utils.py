"""The jaxrl_m / OGBench / FQL template's helpers (reduced from v34 SChoish/douri
utils/flax_utils.py): a field that is no pytree node is static under jit."""

import flax


def nonpytree_field():
    return flax.struct.field(pytree_node=False)


def data_field():
    return flax.struct.field(default=None)
