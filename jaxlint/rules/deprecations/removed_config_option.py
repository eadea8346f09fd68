"""JAX808 removed-config-option: `jax.config` options and `JAX_*` environment settings that
JAX removed; the tables say what JAX now always does, so setting the old value is deleted.
"""

from __future__ import annotations

from jaxlint.rules._rename import UNKNOWN, ConfigOptions
from jaxlint.rules.base import Examples, Rule

# option -> the value JAX now always behaves as (UNKNOWN: the old behaviour is simply gone)
REMOVED_CONFIG: dict[str, object] = {
    "jax_array": True,
    "jax_jit_pjit_api_merge": True,
    "jax_enable_mlir": True,
    "jax_new_checkpoint": True,
    "jax_experimental_name_stack": True,
    "jax_ordered_effects": True,
    "jax_enable_memories": True,
    "jax_coordination_service": True,
    "jax_cpu_enable_gloo_collectives": True,
    "jax_dynamic_shapes": False,
    "jax_parallel_functions_output_gda": UNKNOWN,
    "jax_host_callback_inline": UNKNOWN,
    "jax_host_callback_outfeed": UNKNOWN,
    "jax_host_callback_legacy": UNKNOWN,
    "jax_spmd_mode": UNKNOWN,
    "jax_unique_mhlo_module_names": UNKNOWN,
    "jax_remat_opt_barrier": UNKNOWN,
    "jax_data_dependent_tracing_fallback": UNKNOWN,
    "jax_enable_custom_vjp_by_custom_transpose": UNKNOWN,
    "jax_exec_time_optimization_effort": UNKNOWN,
    "jax_memory_fitting_effort": UNKNOWN,
    "jax_refs_to_pins": UNKNOWN,
    "jax_pallas_use_mosaic_gpu": UNKNOWN,
    "jax_ragged_dot_use_gpu_pallas_triton_lowering": UNKNOWN,
}
RENAMED_CONFIG = {"jax_enable_key_reuse_checks": "jax_debug_key_reuse"}


class RemovedConfigOption(ConfigOptions, Rule):
    """Flags removed `jax.config` options.

    What it does: finds `jax.config.update("jax_array", ...)` (and `jax_jit_pjit_api_merge`,
    `jax_enable_mlir`, `jax_dynamic_shapes`, `jax_enable_memories`, ... every option checked
    to be unrecognized by JAX 0.10.2; `jax_exec_time_optimization_effort`,
    `jax_memory_fitting_effort` (0.11.1), `jax_refs_to_pins`, `jax_pallas_use_mosaic_gpu`,
    `jax_ragged_dot_use_gpu_pallas_triton_lowering` (0.12) when the target JAX is that new),
    `os.environ["JAX_ARRAY"] = ...` settings, reads of such an option
    (`jax.config.jax_array`: no attribute of the config either), and the
    renamed `jax_enable_key_reuse_checks` (now `jax_debug_key_reuse`). The pmap options
    (`jax_pmap_shmap_merge`, ...) are JAX302's.
    Why is this bad: `jax.config.update` with a removed option raises
    `AttributeError: Unrecognized config option: jax_array` at start-up; an environment
    variable for it is silently ignored.
    Example:
        jax.config.update("jax_array", True)
    Use instead:
        (nothing: jax.Array is the only array type)
    Fix: delete the statement (safe when the value set is the behaviour JAX now always has,
    e.g. `jax_array=True`, and every target JAX lacks the option; unsafe otherwise: the old
    behaviour is gone, or an older target JAX still honours it). The renamed option is
    renamed (safe).
    """

    silent_in_compat_code = True
    code = "JAX808"
    name = "removed-config-option"
    message = "{detail}"
    fix_safety = "safe"
    verifier = "import"
    tier = 2
    CONFIG = REMOVED_CONFIG
    RENAMED = RENAMED_CONFIG
    prefilter_words = tuple(w for o in (*REMOVED_CONFIG, *RENAMED_CONFIG) for w in (o, o.upper()))
    examples = Examples(
        invalid=(
            """
            import os

            import jax
            from jax import config

            os.environ["JAX_JIT_PJIT_API_MERGE"] = "1"  # error: JAX808
            jax.config.update("jax_array", True)  # error: JAX808
            config.update("jax_enable_key_reuse_checks", True)  # error: JAX808
            merged = jax.config.jax_jit_pjit_api_merge  # error: JAX808
            """,
            """
            import jax

            jax.config.update("jax_exec_time_optimization_effort", 0.5)  # error: JAX808
            """,
        ),
        valid=(
            """
            import os

            import jax

            os.environ["JAX_PLATFORMS"] = "cpu"
            jax.config.update("jax_enable_x64", True)
            jax.config.update("jax_debug_key_reuse", True)
            wide = jax.config.jax_enable_x64
            """,
            """
            import jax

            # compatibility code: only old JAX runs this branch, where the option exists
            if jax.__version_info__ < (0, 5):
                jax.config.update("jax_dynamic_shapes", True)
            """,
        ),
        fixes=(
            (
                """
                import jax

                jax.config.update("jax_array", True)  # needed for old JAX
                jax.config.update("jax_enable_x64", True)
                jax.config.update("jax_jit_pjit_api_merge", True)
                jax.config.update("jax_enable_key_reuse_checks", True)
                checked = jax.config.jax_enable_key_reuse_checks
                """,
                """
                import jax

                jax.config.update("jax_enable_x64", True)
                jax.config.update("jax_debug_key_reuse", True)
                checked = jax.config.jax_debug_key_reuse
                """,
            ),
        ),
        unsafe_fixes=(
            (
                """
                import jax

                jax.config.update("jax_array", False)
                x = 1
                """,
                """
                import jax

                x = 1
                """,
            ),
        ),
    )
