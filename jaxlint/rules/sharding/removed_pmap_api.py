"""JAX302 removed-pmap-api: pmap-era APIs and config options removed in JAX 0.10.0, built on
the shared rename machinery of `rules/_rename.py` (the same as the JAX8xx rules).
"""

from __future__ import annotations

from jaxlint.rules._rename import PMAP_CONFIG, REMOVED_010, ConfigOptions, Move, RenameRule
from jaxlint.rules.base import Examples

_PXLA_REMOVED = (
    "MapTracer PmapExecutable parallel_callable shard_args Chunked NoSharding Replicated "
    "ShardedAxis ShardingSpec Unstacked spec_to_indices"
).split()
_DROP_IN = (
    "use `jax.device_put(x, NamedSharding(mesh, P()))` for true replication, or the drop-in "
    "helpers in the pmap migration guide (docs.jax.dev/en/latest/migrate_pmap.html)"
)


class RemovedPmapApi(ConfigOptions, RenameRule):
    """Flags pmap-era APIs removed in JAX 0.10.0.

    What it does: finds `jax.device_put_replicated`, `jax.device_put_sharded`,
    `jax.sharding.PmapSharding`, the `jax.interpreters.pxla` pmap internals (`ShardingSpec`,
    `Chunked`, `NoSharding`, `Replicated`, `ShardedAxis`, `Unstacked`, `spec_to_indices`,
    `MapTracer`, `PmapExecutable`, `parallel_callable`, `shard_args`), and
    `jax.config.update("jax_pmap_shmap_merge" | "jax_pmap_no_rank_reduction" |
    "jax_eager_pmap", ...)` (or the `JAX_PMAP_SHMAP_MERGE` environment variable, or a read
    of `jax.config.jax_pmap_shmap_merge`).
    Why is this bad: each raises `AttributeError` in JAX 0.10.2 (e.g. `jax.device_put_replicated
    is deprecated; use jax.device_put instead`, `Unrecognized config option:
    jax_pmap_shmap_merge`): pmap is now `jit(shard_map(...))` and the old implementation
    cannot be selected.
    Example:
        jax.config.update("jax_pmap_shmap_merge", True)
        params = jax.device_put_replicated(params, jax.local_devices())
    Use instead:
        params = jax.device_put(params, NamedSharding(mesh, P()))
    Fix: delete the config line (safe when it set the behaviour JAX now always has; unsafe
    otherwise); the rest none (replication changes shapes: the stacked leading axis goes).
    """

    code = "JAX302"
    name = "removed-pmap-api"
    fix_safety = "safe"
    verifier = "import"
    tier = 2
    status = REMOVED_010
    REMOVED = "0.10"
    CONFIG = PMAP_CONFIG
    prefilter_words = (
        "device_put_replicated",
        "device_put_sharded",
        "PmapSharding",
        "pxla",
        *(w for o in PMAP_CONFIG for w in (o, o.upper())),
    )
    RENAMES = {
        "jax.device_put_replicated": Move(None, None, _DROP_IN, deprecated="0.8.1"),
        "jax.device_put_sharded": Move(None, None, _DROP_IN, deprecated="0.8.1"),
        "jax.sharding.PmapSharding": Move(None, None, "use `jax.NamedSharding`"),
        **{
            f"jax.interpreters.pxla.{n}": Move(
                None, None, "use `jax.shard_map` instead of `jax.pmap`"
            )
            for n in _PXLA_REMOVED
        },
    }
    examples = Examples(
        invalid=(
            """
            import jax

            merged = jax.config.jax_pmap_shmap_merge  # error: JAX302
            jax.config.update("jax_pmap_shmap_merge", True)  # error: JAX302
            params = jax.device_put_replicated({"w": 1.0}, jax.local_devices())  # error: JAX302
            """,
            """
            from jax.interpreters.pxla import ShardingSpec  # error: JAX302
            from jax.sharding import PmapSharding  # error: JAX302
            """,
        ),
        valid=(
            """
            import jax
            from jax.sharding import NamedSharding, PartitionSpec as P

            mesh = jax.make_mesh((jax.device_count(),), ("i",))
            params = jax.device_put({"w": 1.0}, NamedSharding(mesh, P()))
            jax.config.update("jax_enable_x64", True)
            """,
        ),
        fixes=(
            (
                """
                import os

                import jax

                os.environ["JAX_PMAP_SHMAP_MERGE"] = "1"
                jax.config.update("jax_pmap_shmap_merge", True)
                step = jax.pmap(lambda x: x * 2)
                """,
                """
                import os

                import jax

                step = jax.pmap(lambda x: x * 2)
                """,
            ),
        ),
    )
