"""JAX802 experimental-shard-map: `jax.experimental.shard_map.shard_map` -> `jax.shard_map`,
with its positional arguments and `check_rep` rewritten to the new signature.
"""

from __future__ import annotations

import ast

from jaxlint.core.diagnostic import Edit
from jaxlint.edits.rename import (
    argument_of,
    has_star,
    keyword_node,
    keywordize,
    parenthesized,
    rename_keyword,
)
from jaxlint.rules._rename import Move, RenameRule
from jaxlint.rules.base import Context, Examples, Verify
from jaxlint.rules.deprecations._calls import call_of, partial_of

SHARD_MAP_OLD_PARAMS = ("f", "mesh", "in_specs", "out_specs", "check_vma")


class ExperimentalShardMap(RenameRule):
    """Flags `jax.experimental.shard_map.shard_map`.

    What it does: finds calls of the legacy `shard_map` (also through
    `from jax.experimental.shard_map import shard_map as sm`, a module alias, or
    `partial(shard_map, ...)`) and imports of the `jax.experimental.shard_map` module.
    Why is this bad: the module is deprecated since JAX 0.8.0 and warns on import; its
    `shard_map(f, mesh, in_specs, out_specs, check_rep=...)` is a shim over `jax.shard_map`,
    whose arguments after `f` are keyword-only and whose `check_rep` is now `check_vma`.
    `auto=` was removed in 0.8.0 (it raises TypeError).
    Example:
        from jax.experimental.shard_map import shard_map
        f = shard_map(body, mesh, P("i"), P("i"), check_rep=False)
    Use instead:
        f = jax.shard_map(body, mesh=mesh, in_specs=P("i"), out_specs=P("i"), check_vma=False)
    Fix: positional -> keyword arguments and `check_rep` -> `check_vma` (safe: the shim
    forwards exactly these to `jax.shard_map`); the import is removed once unused.
    `auto=A` -> `axis_names=set(mesh.axis_names) - A` (unsafe: what 0.7 computed, but the
    partially manual mode's semantics have evolved since).
    """

    code = "JAX802"
    name = "experimental-shard-map"
    fix_safety = "safe"
    verifier = "import"
    verify = Verify(kinds=("import", "numeric"))
    tier = 1
    templates = ("shard-map",)
    status = "is deprecated since JAX 0.8.0"
    DEPRECATED = "0.8"
    RENAMES = {
        "jax.experimental.shard_map.shard_map": Move(
            "jax.shard_map",
            "safe",
            "keyword arguments `mesh=`, `in_specs=`, `out_specs=`; `check_rep` is `check_vma`",
            call="_shard_map_call",
            since="0.6.1",
        ),
        "jax.experimental.shard_map": Move(
            None,
            None,
            "use `jax.shard_map`",
            module=True,
            status="only holds the deprecated `shard_map` (JAX 0.8.0)",
        ),
    }
    examples = Examples(
        invalid=(
            """
            import jax
            from jax.experimental.shard_map import shard_map as sm  # error: JAX802
            from jax.sharding import PartitionSpec as P

            mesh = jax.make_mesh((8,), ("batch",))


            def local_sum(x):
                return jax.lax.psum(x.sum(), "batch")


            total = sm(local_sum, mesh, in_specs=P("batch"), out_specs=P(), check_rep=False)  # error: JAX802
            """,
            """
            from functools import partial

            import jax
            import jax.experimental.shard_map as shmap  # error: JAX802
            from jax.sharding import PartitionSpec as P

            mesh = jax.make_mesh((8,), ("i",))


            @partial(shmap.shard_map, mesh=mesh, in_specs=P("i"), out_specs=P("i"))  # error: JAX802
            def double(x):
                return x * 2
            """,
        ),
        valid=(
            """
            import jax
            from jax.sharding import PartitionSpec as P

            mesh = jax.make_mesh((8,), ("i",))
            f = jax.shard_map(lambda x: x, mesh=mesh, in_specs=P("i"), out_specs=P("i"))
            """,
            """
            def shard_map(f, mesh, in_specs, out_specs):
                return f

            g = shard_map(abs, None, None, None)
            """,
        ),
        fixes=(
            (
                """
                import jax
                from jax.experimental.shard_map import shard_map
                from jax.sharding import PartitionSpec as P

                mesh = jax.make_mesh((8,), ("i",))
                f = shard_map(lambda x: x * 2, mesh, P("i"), P("i"), check_rep=False)
                """,
                """
                import jax
                from jax.sharding import PartitionSpec as P

                mesh = jax.make_mesh((8,), ("i",))
                f = jax.shard_map(lambda x: x * 2, mesh=mesh, in_specs=P("i"), out_specs=P("i"), check_vma=False)
                """,
            ),
            (
                """
                from functools import partial

                from jax.experimental.shard_map import shard_map as sm
                from jax.sharding import Mesh, PartitionSpec as P


                def build(mesh: Mesh):
                    @partial(sm, mesh=mesh, in_specs=P("i"), out_specs=P(), check_rep=False)
                    def total(x):
                        return x.sum()

                    return total
                """,
                """
                from functools import partial

                from jax.sharding import Mesh, PartitionSpec as P
                import jax


                def build(mesh: Mesh):
                    @partial(jax.shard_map, mesh=mesh, in_specs=P("i"), out_specs=P(), check_vma=False)
                    def total(x):
                        return x.sum()

                    return total
                """,
            ),
        ),
        unsafe_fixes=(
            (
                """
                import jax
                from jax.experimental.shard_map import shard_map

                mesh = jax.make_mesh((4, 2), ("data", "model"))
                f = shard_map(lambda x: x, mesh, jax.P("data"), jax.P("data"), auto=frozenset({"model"}))
                """,
                """
                import jax

                mesh = jax.make_mesh((4, 2), ("data", "model"))
                f = jax.shard_map(lambda x: x, mesh=mesh, in_specs=jax.P("data"), out_specs=jax.P("data"), axis_names=set(mesh.axis_names) - frozenset({"model"}))
                """,
            ),
        ),
    )

    def _shard_map_call(self, ctx: Context, ref: ast.AST, target: str):  # noqa: ANN202
        call = call_of(ref)
        if call is not None:
            if has_star(call) or not call.args or keyword_node(call, "f") is not None:
                return None
            edits = keywordize(ctx, call, SHARD_MAP_OLD_PARAMS, 1, {"check_rep": "check_vma"})
            mesh = argument_of(call, 1, "mesh")
            base = call
        else:
            base = partial_of(ref, ctx)
            if base is None or has_star(base) or len(base.args) > 1:
                return None
            kw = keyword_node(base, "check_rep")
            edits = [rename_keyword(ctx, kw, "check_vma")] if kw is not None else []
            mesh = argument_of(base, 99, "mesh")
        if edits is None:
            return None
        safety = "safe"
        auto = keyword_node(base, "auto")
        if auto is not None:
            if not isinstance(mesh, (ast.Name, ast.Attribute)):
                return None
            edits.append(
                Edit(
                    ctx.start(auto),
                    ctx.end(auto.value),
                    f"axis_names=set({ctx.text(mesh)}.axis_names) - {parenthesized(ctx, auto.value)}",
                )
            )
            safety = "unsafe"
        edits.append(ctx.replace(ref, target))
        return edits, safety
