"""JAX806 jax-core-internal: `jax.core` names that were removed or deprecated, and where
(`jax.extend.core`, ...) they live now.
"""

from __future__ import annotations

from jaxlint.rules._rename import Move, RenameRule
from jaxlint.rules.base import Examples

_EXTEND_CORE_REMOVED = "Primitive ClosedJaxpr Jaxpr JaxprEqn Literal Var Token".split()
# removed from jax.core in 0.10; jax.extend.core has them from 0.10 (`call_impl` until 0.11.1)
_EXTEND_CORE_REMOVED_010 = (
    "mapped_aval unmapped_aval set_current_trace take_current_trace TraceTag call_impl "
    "subjaxprs AbstractToken"
).split()
_EXTEND_CORE_DEPRECATED = (
    "DebugInfo DropVar Effect Effects check_jaxpr concrete_or_error "
    "find_top_trace gensym get_opaque_trace_state jaxprs_in_params new_jaxpr_eqn no_effects "
    "primal_dtype_to_tangent_dtype valid_jaxtype"
).split()
_CALL_PRIMITIVE = (
    "JAX 0.11.1 removed `jax.extend.core.CallPrimitive` and `call_impl`: build the primitive "
    "with `jax.extend.core.create_call_primitive(name)` and "
    "`jax.extend.core.register_call_primitive_rules(prim, ...)` (a different API: port by hand)"
)
_CORE_DEPRECATED_NO_TARGET = (
    "nonempty_axis_env_DO_NOT_USE unsafe_am_i_under_a_jit_DO_NOT_USE "
    "unsafe_am_i_under_a_vmap_DO_NOT_USE unsafe_get_axis_names_DO_NOT_USE JaxprPpContext "
    "JaxprPpSettings OutputType abstract_token aval_mapping_handlers call "
    "concretization_function_error custom_typechecks is_concrete is_constant_dim "
    "is_constant_shape literalable_types no_axis_name trace_ctx"
).split()


class JaxCoreInternal(RenameRule):
    """Flags removed or deprecated `jax.core` names.

    What it does: finds `jax.core.Primitive`, `ClosedJaxpr`, `Jaxpr`, `JaxprEqn`, `Literal`,
    `Var`, `Token`, `get_aval`, `mapped_aval`, `TraceTag`, ... (removed), and the names that
    warn in 0.10.2 and go in 0.11 (`CallPrimitive`, `DebugInfo`, `new_jaxpr_eqn`, ...),
    through any alias (`from jax import core`, `import jax.core as jc`).
    Why is this bad: the removed names raise `AttributeError` (e.g. `jax.core.get_aval was
    deprecated in JAX v0.8.2 and removed in JAX v0.10.0; use jax.typeof instead`); the others
    emit `DeprecationWarning` and disappear in 0.11. Their home is `jax.extend.core` (or
    `jax.errors`), which `import jax` does not import.
    Example:
        import jax
        p = jax.core.Primitive("my_prim")
        aval = jax.core.get_aval(x)
    Use instead:
        import jax
        import jax.extend.core
        p = jax.extend.core.Primitive("my_prim")
        aval = jax.typeof(x)
    `jax.extend.core.CallPrimitive` / `call_impl` themselves were removed in 0.11.1.
    Fix: rename, adding `import jax.extend.core` where needed (safe when every target JAX
    has the new name: `jax.extend.core.X` exists from 0.10, `jax.errors.X` from 0.10.1). For
    `CallPrimitive` / `call_impl` on JAX >= 0.11.1: none (the message names
    `create_call_primitive` + `register_call_primitive_rules`, a different API). On JAX < 0.10
    the `jax.core` spelling is the only one and is not flagged.
    """

    code = "JAX806"
    name = "jax-core-internal"
    prefilter_words = ("core",)  # every `jax.core.*` reference names the module somewhere
    fix_safety = "safe"
    verifier = "import"
    tier = 2
    RENAMES = {
        **{f"jax.core.{n}": Move(f"jax.extend.core.{n}") for n in _EXTEND_CORE_REMOVED},
        **{
            f"jax.core.{n}": Move(f"jax.extend.core.{n}", removed="0.10", since="0.10")
            for n in _EXTEND_CORE_REMOVED_010
        },
        **{
            f"jax.core.{n}": Move(
                f"jax.extend.core.{n}", deprecated="0.10", removed="0.11", since="0.10"
            )
            for n in _EXTEND_CORE_DEPRECATED
        },
        **{
            f"jax.core.{n}": Move(
                None, None, "JAX has no public replacement", deprecated="0.10", removed="0.11"
            )
            for n in _CORE_DEPRECATED_NO_TARGET
        },
        "jax.core.pytype_aval_mappings": Move(
            None, None, "JAX has no public replacement", deprecated="0.10"
        ),
        "jax.core.CallPrimitive": Move(
            "jax.extend.core.CallPrimitive",
            deprecated="0.10",
            removed="0.11",
            since="0.10",
            until="0.11.1",
            fallback=_CALL_PRIMITIVE,
        ),
        "jax.core.call_impl": Move(
            "jax.extend.core.call_impl",
            removed="0.10",
            since="0.10",
            until="0.11.1",
            fallback=_CALL_PRIMITIVE,
        ),
        **{
            f"jax.extend.core.{n}": Move(
                None, None, _CALL_PRIMITIVE, removed="0.11.1", introduced="0.10"
            )
            for n in ("CallPrimitive", "call_impl")
        },
        "jax.core.get_aval": Move("jax.typeof", deprecated="0.8.2", removed="0.10"),
        "jax.core.traverse_jaxpr_params": Move(None, None, "no public replacement", removed="0.10"),
        "jax.core.raise_to_shaped": Move(
            None, None, "no replacement: abstract values are already shaped"
        ),
        "jax.core.ConcretizationTypeError": Move(
            "jax.errors.ConcretizationTypeError", deprecated="0.6", removed="0.10?"
        ),
        **{
            f"jax.core.{n}": Move(
                f"jax.errors.{n}", deprecated="0.10", removed="0.11", since="0.10.1"
            )
            for n in ("InconclusiveDimensionOperation", "JaxprTypeError")
        },
    }
    examples = Examples(
        invalid=(
            """
            import jax

            my_p = jax.core.Primitive("my_prim")  # error: JAX806


            def shape_of(x):
                return jax.core.get_aval(x).shape  # error: JAX806
            """,
            """
            from jax import core
            from jax.core import ClosedJaxpr, ShapedArray  # error: JAX806

            eqn = core.new_jaxpr_eqn  # error: JAX806
            """,
        ),
        valid=(
            """
            import jax
            import jax.extend.core
            from jax.core import ShapedArray

            my_p = jax.extend.core.Primitive("my_prim")
            aval = ShapedArray((3,), jax.numpy.float32)
            t = jax.typeof(1.0)
            """,
        ),
        fixes=(
            (
                """
                import jax

                my_p = jax.core.Primitive("my_prim")
                aval = jax.core.get_aval(1.0)
                """,
                """
                import jax
                import jax.extend.core

                my_p = jax.extend.core.Primitive("my_prim")
                aval = jax.typeof(1.0)
                """,
            ),
            (
                """
                from jax.core import Jaxpr, ShapedArray
                """,
                """
                from jax.core import ShapedArray
                from jax.extend.core import Jaxpr
                """,
            ),
        ),
    )

    def dynamic_move(self, q: str) -> Move | None:
        if q.startswith(_PRETTY_PRINTERS):
            return Move(None, None, "pretty-print with `str(jaxpr)` / `jaxpr.pretty_print()`")
        return None

    def unneeded_visits(self) -> frozenset[str]:
        """The attribute visits too (the table's tails cannot filter them: `dynamic_move`
        matches names outside the table) in a module none of whose imports leads to an
        entry: a chain's qualified name is an import's, through aliases, with the chain's
        attributes after it (or a builtin's bare name), so an entry or a `jax.core.pp_*`
        name needs an import that is a dotted prefix of one (`jax`, `jax.core`) or a
        `jax.core.pp_*` name itself. Most modules whose text says `core` (JAX's own) import
        `jax._src.core`."""
        unneeded = super().unneeded_visits()
        for qualnames in self.ctx.index.imported_names().values():
            for q in qualnames:
                if q in _ROOTS or q.startswith(_PRETTY_PRINTERS):
                    return unneeded
        return unneeded | _ATTRIBUTE_VISITS


_PRETTY_PRINTERS = "jax.core.pp_"
# the dotted prefixes (`jax`, `jax.core`, `jax.extend.core`) of the table's names and of the
# pretty-printers'
_ROOTS = frozenset(
    ".".join(parts[:i])
    for name in (*JaxCoreInternal.RENAMES, _PRETTY_PRINTERS + "x")
    for parts in [name.split(".")]
    for i in range(1, len(parts))
)
_ATTRIBUTE_VISITS = frozenset({"Attribute"})
