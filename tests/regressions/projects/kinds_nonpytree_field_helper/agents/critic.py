"""An agent `PyTreeNode` whose `config` is declared with the template's `nonpytree_field()`
imported from another module (reduced from v34 SChoish/douri agents/critic.py:157 and
jnzhao3/horizon-reduction's notebooks: JAX101 x2, JAX120 x4, tuning material after the
reading). `meta` uses a helper of this module whose name ends in `_field` (followed to its
`pytree_node=False`); `scale` uses an imported helper whose body this module cannot read and
whose name says nothing: it stays a data field."""

from typing import Any

import flax
from utils.flax_utils import data_field, nonpytree_field


def meta_field():
    return flax.struct.field(pytree_node=False)


class CriticAgent(flax.struct.PyTreeNode):
    network: Any
    config: Any = nonpytree_field()
    meta: Any = meta_field()
    scale: Any = data_field()
