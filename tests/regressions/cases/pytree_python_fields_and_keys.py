# ruff: noqa: UP007, UP035 (octo's own typing spellings are the subject)
"""Python values inside traced code (octo model/components): a flax struct field declared
`str` or `Mapping[str, Enum]` holds a Python value whether or not it is a pytree node (a
str leaf cannot even be passed to jit), so `Meta.create(group)` built from them and
`int(meta.attends(other))` are Python (block_transformer.py:329); the keys of a dict of arrays
are its treedef, so `k not in tasks` for `k` from `observations.keys()` is a Python bool
(tokenizers.py:123). The twins read an array field and the dict's values.
"""

from enum import Enum
from typing import Mapping, Sequence, Union

import flax
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np


class Rule(Enum):
    NEVER = "never"
    CAUSAL = "causal"


@flax.struct.dataclass
class Group:
    tokens: jax.Array
    name: str
    rules: Mapping[str, Rule]


@flax.struct.dataclass
class Meta:
    name: str
    timestep: int
    rules: Mapping[str, Rule]

    @classmethod
    def create(cls, group: Union[Group, Group], timestep: int):
        return cls(timestep=timestep, name=group.name, rules=group.rules)

    def attends(self, other: "Meta") -> bool:
        rule = self.rules.get(other.name, Rule.NEVER)
        if rule == Rule.CAUSAL:
            return other.timestep <= self.timestep
        return False


def regex_filter(keys, xs):
    return list(filter(lambda x: x in keys, xs))


class Block(nn.Module):
    task_keys: Sequence[str] = ()

    @nn.compact
    def __call__(self, groups: Sequence[Group]):
        total = sum(g.tokens.shape[1] for g in groups)
        mask = np.zeros((total, total), dtype=int)

        def meta(i):
            return Meta.create(groups[0], timestep=i)

        for i in range(total):
            for j in range(total):
                mask[i, j] = int(meta(i).attends(meta(j)))
        return jnp.asarray(mask), int(groups[0].tokens.sum())  # error: JAX101


@jax.jit
def apply(params, groups):
    return Block().apply(params, groups)


@jax.jit
def fill_tasks(observations, tasks):
    needed = regex_filter(("image",), observations.keys())
    for k in needed:
        if k not in tasks:
            tasks = {**tasks, k: jnp.zeros_like(observations[k])}
    values = regex_filter(("image",), observations.values())
    for v in values:
        if v.sum() > 0:  # error: JAX110
            tasks = {**tasks, "any": v}
    return tasks
