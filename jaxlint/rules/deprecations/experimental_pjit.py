"""JAX803 experimental-pjit: `jax.experimental.pjit.pjit` (deprecated since JAX 0.8.0) ->
`jax.jit`. The rewrite is safe only when every sharding is provably a `Sharding` object given
by keyword: `jax.jit` takes shardings by keyword only and ignores the `with mesh:` context
through which pjit resolved bare `PartitionSpec`s.
"""

from __future__ import annotations

import ast

from jaxlint.analysis import syntax
from jaxlint.analysis.values import assigned_value
from jaxlint.edits.rename import argument_of, has_star, keyword_node, keywordize
from jaxlint.rules._rename import Move, RenameRule
from jaxlint.rules.base import Context, Examples, Verify
from jaxlint.rules.deprecations._calls import call_of, partial_of


def _is_sharding_object(node: ast.AST, ctx: Context, depth: int = 0) -> bool:
    """A `Sharding` instance by construction (`NamedSharding(...)`), or a tuple of them."""
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(_is_sharding_object(e, ctx, depth) for e in node.elts)
    if isinstance(node, ast.Call):
        return ctx.qualname(node.func) in SHARDING_CLASSES
    if isinstance(node, ast.Name) and depth < 3:
        value = assigned_value(ctx.index, node)
        if value is not None:
            return _is_sharding_object(value, ctx, depth + 1)
    return False


SHARDING_CLASSES = frozenset(
    {
        "jax.sharding.NamedSharding",
        "jax.NamedSharding",
        "jax.sharding.SingleDeviceSharding",
    }
)

PJIT_PARAMS = (
    "fun",
    "in_shardings",
    "out_shardings",
    "static_argnums",
    "static_argnames",
    "donate_argnums",
    "donate_argnames",
    "keep_unused",
    "device",
    "backend",
    "inline",
    "compiler_options",
)
PJIT_REMOVED_KEYWORDS = frozenset(
    {"in_axis_resources", "out_axis_resources", "resource_env", "abstracted_axes"}
)


class ExperimentalPjit(RenameRule):
    """Flags `jax.experimental.pjit.pjit`.

    What it does: finds uses of `pjit` (calls, `partial(pjit, ...)`, `@pjit`).
    Why is this bad: `pjit` is deprecated since JAX 0.8.0 (DeprecationWarning); `jax.jit` has
    the same features. Two differences matter when migrating: `jax.jit` takes shardings as
    keywords only (`jax.jit(f, s)` is a TypeError), and `pjit` resolves bare
    `PartitionSpec`s (and `None`) through the `with mesh:` context, which `jax.jit` ignores
    (`RuntimeError: jit requires a non-empty mesh in context`; it needs `jax.set_mesh`).
    Example:
        step = pjit(train_step, in_shardings=NamedSharding(mesh, P("data")))
    Use instead:
        step = jax.jit(train_step, in_shardings=NamedSharding(mesh, P("data")))
    Fix: -> `jax.jit` (safe when every sharding is given by keyword as a `Sharding` object,
    or none is given; unsafe with positional shardings, `PartitionSpec`s, `None` or values
    it cannot see: those also need `with jax.set_mesh(mesh):`). `in_axis_resources=` and
    friends: none.
    """

    code = "JAX803"
    name = "experimental-pjit"
    fix_safety = "safe"
    verifier = "import"
    verify = Verify(kinds=("import", "trace"))
    tier = 2
    templates = ("sharding",)
    status = "is deprecated since JAX 0.8.0"
    DEPRECATED = "0.8"
    RENAMES = {
        "jax.experimental.pjit.pjit": Move("jax.jit", "safe", call="_pjit_call"),
    }
    examples = Examples(
        invalid=(
            """
            import jax
            from jax.experimental.pjit import pjit  # error: JAX803
            from jax.sharding import NamedSharding, PartitionSpec as P

            mesh = jax.make_mesh((8,), ("data",))
            step = pjit(lambda x: x * 2, in_shardings=NamedSharding(mesh, P("data")))  # error: JAX803
            """,
            """
            import jax.experimental.pjit as pj


            @pj.pjit  # error: JAX803
            def f(x):
                return x + 1
            """,
        ),
        valid=(
            """
            import jax

            step = jax.jit(lambda x: x * 2)
            """,
            """
            from jax.experimental import pjit as pjit_module

            sharding_constraint = pjit_module.__name__
            """,
        ),
        fixes=(
            (
                """
                import jax
                from jax.experimental.pjit import pjit
                from jax.sharding import NamedSharding, PartitionSpec as P

                mesh = jax.make_mesh((8,), ("data",))
                data = NamedSharding(mesh, P("data"))
                step = pjit(lambda x: x * 2, in_shardings=data, out_shardings=data)
                """,
                """
                import jax
                from jax.sharding import NamedSharding, PartitionSpec as P

                mesh = jax.make_mesh((8,), ("data",))
                data = NamedSharding(mesh, P("data"))
                step = jax.jit(lambda x: x * 2, in_shardings=data, out_shardings=data)
                """,
            ),
        ),
        unsafe_fixes=(
            (
                """
                import jax
                from jax.experimental.pjit import pjit
                from jax.sharding import PartitionSpec as P

                step = pjit(lambda x: x * 2, P("data"), P("data"))
                """,
                """
                import jax
                from jax.sharding import PartitionSpec as P

                step = jax.jit(lambda x: x * 2, in_shardings=P("data"), out_shardings=P("data"))
                """,
            ),
        ),
    )

    def _pjit_call(self, ctx: Context, ref: ast.AST, target: str):  # noqa: ANN202
        call = call_of(ref)
        positional = False
        if call is not None:
            if has_star(call) or not call.args or keyword_node(call, "fun") is not None:
                return None
            edits = keywordize(ctx, call, PJIT_PARAMS, 1, {})
            if edits is None:
                return None
            base = call
            positional = len(call.args) > 1
            shardings = [
                argument_of(call, 1, "in_shardings"),
                argument_of(call, 2, "out_shardings"),
            ]
        else:
            base = partial_of(ref, ctx)
            if base is None:
                parent = syntax.parent(ref)
                decorated = isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef))
                if decorated and ref in parent.decorator_list:  # type: ignore[union-attr]
                    return [ctx.replace(ref, target)], "safe"
                return None
            if has_star(base) or len(base.args) > 1:
                return None
            edits = []
            shardings = [
                argument_of(base, 99, "in_shardings"),
                argument_of(base, 99, "out_shardings"),
            ]
        if any(kw.arg in PJIT_REMOVED_KEYWORDS for kw in base.keywords):
            return None
        exact = not positional and all(s is None or _is_sharding_object(s, ctx) for s in shardings)
        edits.append(ctx.replace(ref, target))
        return edits, "safe" if exact else "unsafe"
