"""JAX5xx: mutation and side effects.

One rule per module, named after the rule; `_updates.py` holds what the two rules about lost
functional updates (JAX504, JAX505) share. This package re-exports the rule classes (the registry
in `jaxlint.rules` finds them here) and the public names of the former single `mutation.py`, so
imports from `jaxlint.rules.mutation` keep working.
"""

from __future__ import annotations

from jaxlint.rules.mutation._updates import AT_UPDATES
from jaxlint.rules.mutation.array_used_after_donation import ArrayUsedAfterDonation
from jaxlint.rules.mutation.discarded_functional_update import (
    ARRAY_EFFECT_METHODS,
    CLOCK_WORDS,
    ERROR_PROBES,
    PURE_UPDATES,
    WHY_504,
    DiscardedFunctionalUpdate,
)
from jaxlint.rules.mutation.inplace_array_update import (
    AT_METHODS,
    InplaceArrayUpdate,
    jax_array_name,
)
from jaxlint.rules.mutation.lost_loop_variable_update import LostLoopVariableUpdate
from jaxlint.rules.mutation.mutable_global_in_traced import MutableGlobalInTraced
from jaxlint.rules.mutation.side_effect_in_traced import (
    APPEND_LIKE,
    CONTAINER_FACTORIES,
    LIST_METHODS,
    REF_MODULES,
    SIDE_EFFECT_ADVICE,
    TRACE_ONCE,
    SideEffectInTraced,
)

__all__ = [
    "APPEND_LIKE",
    "ARRAY_EFFECT_METHODS",
    "AT_METHODS",
    "AT_UPDATES",
    "CLOCK_WORDS",
    "CONTAINER_FACTORIES",
    "ERROR_PROBES",
    "LIST_METHODS",
    "PURE_UPDATES",
    "REF_MODULES",
    "SIDE_EFFECT_ADVICE",
    "TRACE_ONCE",
    "WHY_504",
    "ArrayUsedAfterDonation",
    "DiscardedFunctionalUpdate",
    "InplaceArrayUpdate",
    "LostLoopVariableUpdate",
    "MutableGlobalInTraced",
    "SideEffectInTraced",
    "jax_array_name",
]
