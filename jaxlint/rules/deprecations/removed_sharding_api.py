"""JAX809 removed-sharding-api: removed sharding APIs (`PositionalSharding`, `use_mesh`,
`jax.experimental.PartitionSpec`, the deprecated `jax.interpreters.pxla` internals).
"""

from __future__ import annotations

from jaxlint.rules._rename import Move, RenameRule
from jaxlint.rules.base import Examples

_PXLA_DEPRECATED = (
    "Index MeshAxisName MeshExecutable global_aval_to_result_handler "
    "global_result_handlers op_sharding_to_indices ArrayMapping "
    "array_mapping_to_axis_resources"
).split()


class RemovedShardingApi(RenameRule):
    """Flags removed sharding APIs.

    What it does: finds `jax.sharding.PositionalSharding`, `GSPMDSharding`,
    `XLACompatibleSharding`, `jax.sharding.use_mesh`, `jax.experimental.PartitionSpec` and
    the `jax.interpreters.pxla` internals deprecated in 0.8.2 (`thread_resources`,
    `MeshExecutable`, ...; most removed in 0.11). The pmap-only ones (`PmapSharding`, `ShardingSpec`,
    `device_put_replicated`) are JAX302's.
    Why is this bad: the removed names raise `AttributeError`; the `pxla` ones warn and go
    in 0.11.
    Example:
        with jax.sharding.use_mesh(mesh):
            ...
        sharding = PositionalSharding(jax.devices()).reshape(4, 2)
    Use instead:
        with jax.set_mesh(mesh):
            ...
        sharding = NamedSharding(jax.make_mesh((4, 2), ("x", "y")), P("x", "y"))
    Fix: `use_mesh` -> `jax.set_mesh` and `jax.experimental.PartitionSpec` ->
    `jax.sharding.PartitionSpec` (safe); the rest none (device layouts must be redesigned
    as meshes).
    """

    code = "JAX809"
    name = "removed-sharding-api"
    fix_safety = "safe"
    verifier = "import"
    tier = 2
    templates = ("sharding",)
    RENAMES = {
        "jax.sharding.PositionalSharding": Move(
            None,
            None,
            "use `NamedSharding(mesh, P(...))` over a `jax.make_mesh` mesh",
            deprecated="0.6",
            removed="0.10?",
        ),
        "jax.sharding.GSPMDSharding": Move(
            None, None, "use `jax.sharding.NamedSharding`", deprecated="0.6", removed="0.10?"
        ),
        "jax.sharding.XLACompatibleSharding": Move(None, None, "use `jax.sharding.Sharding`"),
        "jax.sharding.use_mesh": Move("jax.set_mesh", removed="0.10?", since="0.7.1"),
        "jax.experimental.PartitionSpec": Move("jax.sharding.PartitionSpec"),
        **{
            f"jax.interpreters.pxla.{n}": Move(
                None, None, "no public replacement", deprecated="0.8.2", removed="0.11"
            )
            for n in _PXLA_DEPRECATED
        },
        **{
            f"jax.interpreters.pxla.{n}": Move(
                None,
                None,
                "no public replacement",
                deprecated="0.8.2",
                removed="0.11",
                introduced="0.10",
            )
            for n in ("are_hlo_shardings_equal", "is_hlo_sharding_replicated")
        },
        **{
            f"jax.interpreters.pxla.{n}": Move(
                None, None, "no public replacement", deprecated="0.8.2"
            )
            for n in ("MeshComputation", "global_avals_to_results_handler")
        },
        "jax.interpreters.pxla.thread_resources": Move(
            None,
            None,
            "enter the mesh with `jax.set_mesh(mesh)` and read `jax.sharding.get_abstract_mesh()`",
            deprecated="0.8.2",
        ),
    }
    examples = Examples(
        invalid=(
            """
            import jax
            from jax.sharding import PositionalSharding  # error: JAX809

            mesh = jax.make_mesh((8,), ("i",))
            with jax.sharding.use_mesh(mesh):  # error: JAX809
                pass
            """,
            """
            from jax.interpreters import pxla

            mesh = pxla.thread_resources.env.physical_mesh  # error: JAX809
            """,
        ),
        valid=(
            """
            import jax
            from jax.sharding import NamedSharding, PartitionSpec

            mesh = jax.make_mesh((8,), ("i",))
            with jax.set_mesh(mesh):
                s = NamedSharding(mesh, PartitionSpec("i"))
            """,
        ),
        fixes=(
            (
                """
                import jax
                from jax.experimental import PartitionSpec as P

                mesh = jax.make_mesh((8,), ("i",))
                with jax.sharding.use_mesh(mesh):
                    spec = P("i")
                """,
                """
                import jax
                from jax.sharding import PartitionSpec as P

                mesh = jax.make_mesh((8,), ("i",))
                with jax.set_mesh(mesh):
                    spec = P("i")
                """,
            ),
        ),
    )
