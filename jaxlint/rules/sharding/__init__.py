"""JAX3xx: pmap, shard_map and meshes.

One rule per module; `_shard_map.py` holds the facts several of them share (which functions
are given to `shard_map`, what a spec or mesh name was bound to). JAX302 builds on the rename
machinery of `rules/_rename.py`. This package re-exports the rule classes, which the registry
finds by scanning this namespace, and the name tables others may import.
"""

from __future__ import annotations

from jaxlint.rules.sharding._shard_map import (
    LEGACY_SHARD_MAP,
    PSPECS,
    SHARD_MAPS,
    TREE_MAPS,
    ShardMapUse,
    shard_map_uses,
    spec_axes,
    spec_entry,
)
from jaxlint.rules.sharding.mesh_context_manager import MESHES, MeshContextManager
from jaxlint.rules.sharding.partitionspec_tuple_compare import PartitionSpecTupleCompare
from jaxlint.rules.sharding.pmap_usage import PMAPS, PmapUsage, pmap_to_shard_map
from jaxlint.rules.sharding.removed_pmap_api import RemovedPmapApi
from jaxlint.rules.sharding.shard_map_double_grad_reduction import (
    GRADS,
    REDUCTIONS,
    ShardMapDoubleGradReduction,
)
from jaxlint.rules.sharding.shard_map_unplaced_input import (
    UNPLACED_PRODUCERS,
    ShardMapUnplacedInput,
)
from jaxlint.rules.sharding.unreplicate_index import UnreplicateIndex

__all__ = [
    "GRADS",
    "LEGACY_SHARD_MAP",
    "MESHES",
    "PMAPS",
    "PSPECS",
    "REDUCTIONS",
    "SHARD_MAPS",
    "TREE_MAPS",
    "UNPLACED_PRODUCERS",
    "MeshContextManager",
    "PartitionSpecTupleCompare",
    "PmapUsage",
    "RemovedPmapApi",
    "ShardMapDoubleGradReduction",
    "ShardMapUnplacedInput",
    "ShardMapUse",
    "UnreplicateIndex",
    "pmap_to_shard_map",
    "shard_map_uses",
    "spec_axes",
    "spec_entry",
]
