"""JAX804 removed-module: imports and uses of JAX modules that were removed or moved."""

from __future__ import annotations

from jaxlint.rules._rename import Move, RenameRule
from jaxlint.rules.base import Examples


class RemovedModule(RenameRule):
    """Flags imports and uses of removed JAX modules.

    What it does: finds `jax.linear_util`, `jax.experimental.array_api`,
    `jax.abstract_arrays`, `jax.lib.xla_bridge`, `jax.lib.xla_client`,
    `jax.experimental.maps` (`xmap`, `Mesh`), `jax.experimental.host_callback`,
    `jax.experimental.shard`, `jax.experimental.stax` and `jax.experimental.optimizers`
    (now `jax.example_libraries`), `jax.util`, `jax.cloud_tpu_init` (removed in 0.11),
    `jax.experimental.shard_alike` (0.11.2) and `jax.experimental.control_deps` (0.11.1).
    Why is this bad: the modules are gone: importing them raises `ModuleNotFoundError`
    (`ImportError` for `from jax.lib import xla_client`), so nothing in the file runs.
    Example:
        import jax.linear_util as lu
        from jax.lib import xla_bridge
        backend = xla_bridge.get_backend()
    Use instead:
        import jax.extend.linear_util as lu
        import jax.extend.backend
        backend = jax.extend.backend.get_backend()
    Fix: rename + import where the target is 1:1 (`jax.extend.linear_util`,
    `jax.extend.backend.get_backend`, `jax.default_backend`, `jax.numpy` for the array API,
    `jax.sharding.Mesh`, `jax.sharding.reshard/auto_axes/explicit_axes`,
    `jax.core.ShapedArray`, `jax.example_libraries.stax/optimizers`; safe); the import of a removed module is deleted once nothing
    uses it. `host_callback`, `xmap`, `xla_client`, `jax.util`, `shard_alike`,
    `control_deps`: none (the message says what replaces them, or that nothing does).
    """

    code = "JAX804"
    name = "removed-module"
    fix_safety = "safe"
    verifier = "import"
    tier = 1
    RENAMES = {
        "jax.linear_util": Move("jax.extend.linear_util", "safe", module=True),
        "jax.experimental.array_api": Move("jax.numpy", "safe", module=True),
        "jax.abstract_arrays": Move(None, None, "use `jax.core.ShapedArray`", module=True),
        "jax.abstract_arrays.ShapedArray": Move("jax.core.ShapedArray"),
        "jax.abstract_arrays.raise_to_shaped": Move(
            None, None, "no replacement: abstract values are already shaped"
        ),
        "jax.lib.xla_bridge": Move(
            None,
            None,
            "use `jax.extend.backend` / `jax.default_backend`",
            module=True,
            removed="0.10?",
        ),
        "jax.lib.xla_bridge.get_backend": Move(
            "jax.extend.backend.get_backend", deprecated="0.6", removed="0.10?"
        ),
        "jax.lib.xla_bridge.default_backend": Move("jax.default_backend"),
        "jax.lib.xla_bridge.process_index": Move("jax.process_index"),
        "jax.lib.xla_bridge.process_count": Move("jax.process_count"),
        "jax.lib.xla_client": Move(
            None,
            None,
            "use the public APIs (`jax.extend`, `Lowered.compiler_ir()`)",
            module=True,
            removed="0.10?",
        ),
        "jax.experimental.maps": Move(None, None, "use `jax.shard_map`", module=True),
        "jax.experimental.maps.Mesh": Move("jax.sharding.Mesh"),
        "jax.experimental.maps.xmap": Move(
            None, None, "use `jax.shard_map` or `jax.vmap(..., spmd_axis_name=...)`"
        ),
        "jax.experimental.host_callback": Move(
            None,
            None,
            "use `jax.debug.callback` / `jax.debug.print` / `jax.pure_callback`",
            module=True,
            removed="0.10?",
        ),
        "jax.experimental.host_callback.id_tap": Move(
            None,
            None,
            "use `jax.debug.callback(fn, x)` (it returns None: keep using `x`)",
            removed="0.10?",
        ),
        "jax.experimental.host_callback.id_print": Move(
            None, None, 'use `jax.debug.print("{}", x)` (it returns None: keep using `x`)'
        ),
        "jax.experimental.host_callback.call": Move(
            None,
            None,
            "use `jax.pure_callback(fn, result_shape, x)` (argument order differs)",
            removed="0.10?",
        ),
        "jax.experimental.shard": Move(
            None, None, "use `jax.sharding`", module=True, removed="0.10?"
        ),
        **{
            f"jax.experimental.shard.{n}": Move(f"jax.sharding.{n}", removed="0.10?", since="0.7")
            for n in ("reshard", "auto_axes", "explicit_axes")
        },
        # moved to jax.example_libraries in 0.2.25 and removed from jax.experimental in 0.3
        "jax.experimental.stax": Move("jax.example_libraries.stax", "safe", module=True),
        "jax.experimental.optimizers": Move(
            "jax.example_libraries.optimizers", "safe", module=True
        ),
        "jax.util": Move(
            None,
            None,
            "use `functools`/`itertools` or your own helpers",
            module=True,
            removed="0.10?",
        ),
        "jax.cloud_tpu_init": Move(
            None, None, "remove the import", module=True, deprecated="0.10?", removed="0.11"
        ),
        "jax.experimental.shard_alike": Move(
            None,
            None,
            "JAX has no public replacement (let the compiler choose, or constrain both values "
            "with `jax.lax.with_sharding_constraint`)",
            module=True,
            removed="0.11.2",
        ),
        "jax.experimental.control_deps": Move(
            None,
            None,
            "it moved to `jax.experimental.overlap` in 0.11.1, which now exports only "
            "`program_order`; there is no drop-in replacement",
            module=True,
            removed="0.11.1",
            introduced="0.10",
        ),
    }
    examples = Examples(
        invalid=(
            """
            import jax.linear_util as lu  # error: JAX804

            f = lu.wrap_init(abs)
            """,
            """
            import jax
            from jax.lib import xla_bridge  # error: JAX804

            backend = xla_bridge.get_backend()  # error: JAX804
            print(jax.lib.xla_bridge.default_backend())  # error: JAX804
            """,
            """
            from jax.experimental import host_callback as hcb  # error: JAX804
            from jax.experimental.maps import Mesh, xmap  # error: JAX804, JAX804
            """,
            """
            from jax.experimental.array_api import sum as xsum  # error: JAX804
            """,
            """
            from jax.experimental import stax  # error: JAX804
            from jax.experimental.optimizers import adam  # error: JAX804
            """,
        ),
        valid=(
            """
            import jax.extend.linear_util as lu
            import jax.extend.backend

            backend = jax.extend.backend.get_backend()
            f = lu.wrap_init
            """,
            """
            import jax

            util = jax.tree_util
            lib = jax.lib
            """,
        ),
        fixes=(
            (
                """
                import jax.linear_util as lu

                f = lu.wrap_init(abs)
                """,
                """
                import jax.extend.linear_util as lu

                f = lu.wrap_init(abs)
                """,
            ),
            (
                """
                import jax
                from jax.lib import xla_bridge

                backend = xla_bridge.get_backend()
                name = xla_bridge.default_backend()
                """,
                """
                import jax
                import jax.extend.backend

                backend = jax.extend.backend.get_backend()
                name = jax.default_backend()
                """,
            ),
            (
                """
                from jax.linear_util import wrap_init, WrappedFun
                """,
                """
                from jax.extend.linear_util import wrap_init, WrappedFun
                """,
            ),
        ),
    )
