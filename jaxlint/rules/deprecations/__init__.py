"""JAX8xx: removed and deprecated APIs, with renames where the target is 1:1.

Each rule is a table of `Move`s (old qualified name -> what replaces it), checked against
JAX 0.10.2 (reference/jax-0.10-facts.md §2; `tests/test_deprecation_table.py` keeps the
targets honest against the installed JAX). References are found through `ctx.qualname`, so
aliases (`import jax.numpy as np`, `from jax import core`) are exact and never guessed. One rule
per module; the shared machinery (`Move`, `RenameRule`, `ConfigOptions`) is `rules/_rename.py`,
re-exported here with the config tables so `from jaxlint.rules.deprecations import ...` and the
registry, which scans this namespace, keep working.
"""

from __future__ import annotations

from jaxlint.rules._rename import (
    CONFIG_ADVICE,
    CONFIG_REMOVED_IN,
    DEPRECATED_011,
    IMPORT_ERRORS,
    PMAP_CONFIG,
    REMOVED_010,
    SAFETY_RANK,
    UNKNOWN,
    ConfigOptions,
    Move,
    RenameRule,
    for_target,
    import_shim,
    needs_parentheses,
    reexported,
)
from jaxlint.rules.deprecations._calls import call_of, partial_of
from jaxlint.rules.deprecations.empty_used_as_zeros import EmptyUsedAsZeros
from jaxlint.rules.deprecations.experimental_pjit import ExperimentalPjit
from jaxlint.rules.deprecations.experimental_shard_map import ExperimentalShardMap
from jaxlint.rules.deprecations.jax_core_internal import JaxCoreInternal
from jaxlint.rules.deprecations.moved_or_renamed_function import MovedOrRenamedFunction
from jaxlint.rules.deprecations.numpy_removed_aliases import NumpyRemovedAliases
from jaxlint.rules.deprecations.removed_array_types import RemovedArrayTypes
from jaxlint.rules.deprecations.removed_config_option import (
    REMOVED_CONFIG,
    RENAMED_CONFIG,
    RemovedConfigOption,
)
from jaxlint.rules.deprecations.removed_keyword_or_positional import RemovedKeywordOrPositional
from jaxlint.rules.deprecations.removed_module import RemovedModule
from jaxlint.rules.deprecations.removed_sharding_api import RemovedShardingApi
from jaxlint.rules.deprecations.removed_tree_aliases import RemovedTreeAliases

__all__ = [
    "CONFIG_ADVICE",
    "CONFIG_REMOVED_IN",
    "DEPRECATED_011",
    "IMPORT_ERRORS",
    "PMAP_CONFIG",
    "REMOVED_010",
    "REMOVED_CONFIG",
    "RENAMED_CONFIG",
    "SAFETY_RANK",
    "UNKNOWN",
    "ConfigOptions",
    "EmptyUsedAsZeros",
    "ExperimentalPjit",
    "ExperimentalShardMap",
    "JaxCoreInternal",
    "Move",
    "MovedOrRenamedFunction",
    "NumpyRemovedAliases",
    "RemovedArrayTypes",
    "RemovedConfigOption",
    "RemovedKeywordOrPositional",
    "RemovedModule",
    "RemovedShardingApi",
    "RemovedTreeAliases",
    "RenameRule",
    "call_of",
    "for_target",
    "import_shim",
    "needs_parentheses",
    "partial_of",
    "reexported",
]
