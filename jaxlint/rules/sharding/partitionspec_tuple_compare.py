"""JAX306 partitionspec-tuple-compare: `PartitionSpec == tuple` comparisons, always False
since JAX 0.10.0, when `PartitionSpec` stopped being a tuple subclass.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.values import resolved
from jaxlint.edits.rename import spell_partition_spec
from jaxlint.rules.base import Context, Examples, Rule, Verify
from jaxlint.rules.sharding._shard_map import PSPECS, value_of


class PartitionSpecTupleCompare(Rule):
    """Flags `PartitionSpec == tuple` comparisons.

    What it does: finds `==`/`!=` between a `P(...)` call, a name bound to one, or an
    `x.sharding.spec`, and a tuple literal.
    Why is this bad: since JAX 0.10.0 `PartitionSpec` is no longer a tuple subclass and never
    equals one: `P(None, "x") == (None, "x")` is `False`, silently, so the check always
    fails (or always passes with `!=`).
    Example:
        if x.sharding.spec == ("batch", None): ...
    Use instead:
        if x.sharding.spec == P("batch", None): ...
    Fix: wrap the tuple in `P(...)` (safe: it compares the intended specs).
    """

    silent_in_compat_code = True  # old-JAX branches of compatibility code
    code = "JAX306"
    name = "partitionspec-tuple-compare"
    message = "`PartitionSpec` never equals a tuple (JAX 0.10.0): this comparison is always {always}; compare with `P(...)`"
    fix_safety = "safe"
    verifier = "numeric"
    verify = Verify(changes_result=True)
    tier = 3
    examples = Examples(
        invalid=(
            """
            import jax
            from jax.sharding import PartitionSpec as P


            def is_batch_sharded(x: jax.Array) -> bool:
                return x.sharding.spec == ("batch", None)  # error: JAX306


            spec = P(None, "model")
            assert spec != (None, "model")  # error: JAX306
            expected = ("data",)
            same = P("data") == expected  # error: JAX306
            """,
        ),
        valid=(
            """
            import jax
            from jax.sharding import PartitionSpec as P


            def is_batch_sharded(x: jax.Array) -> bool:
                return x.sharding.spec == P("batch", None) and x.shape == (8, 4)


            spec = ("a", "b")
            same = spec == ("a", "b")
            """,
        ),
        fixes=(
            (
                """
                import jax
                from jax.sharding import PartitionSpec as P


                def is_batch_sharded(x: jax.Array) -> bool:
                    return x.sharding.spec == ("batch", None)
                """,
                """
                import jax
                from jax.sharding import PartitionSpec as P


                def is_batch_sharded(x: jax.Array) -> bool:
                    return x.sharding.spec == P("batch", None)
                """,
            ),
            (
                """
                import jax

                ok = jax.sharding.PartitionSpec("x") == ("x",)
                want = ("x", None)
                same = jax.sharding.PartitionSpec("x", None) != want
                """,
                """
                import jax

                ok = jax.sharding.PartitionSpec("x") == jax.P("x")
                want = ("x", None)
                same = jax.sharding.PartitionSpec("x", None) != jax.P(*want)
                """,
            ),
        ),
    )
    templates = ("sharding",)

    def visit_Compare(self, node: ast.Compare, ctx: Context) -> None:
        if not ctx.target.reaches("0.10"):
            return  # before 0.10 `PartitionSpec` is a tuple subclass: the comparison works
        left = node.left
        for op, right in zip(node.ops, node.comparators):
            if isinstance(op, (ast.Eq, ast.NotEq)):
                for spec, tup in ((left, right), (right, left)):
                    is_tuple = isinstance(tup, ast.Tuple) or (
                        isinstance(tup, ast.Name)
                        and isinstance(resolved(ctx.index, tup), ast.Tuple)
                    )
                    if is_tuple and self._is_spec(spec, ctx):
                        self._report(node, op, tup, ctx)
                        break
            left = right

    def _is_spec(self, node: ast.AST, ctx: Context) -> bool:
        if isinstance(node, ast.Attribute) and node.attr == "spec":
            v = node.value
            if isinstance(v, ast.Attribute) and v.attr == "sharding":
                return True
            v = resolved(ctx.index, v) if isinstance(v, ast.Name) else v
            return isinstance(v, ast.Call) and ctx.qualname(v.func) in (
                "jax.sharding.NamedSharding",
                "jax.NamedSharding",
            )
        value = value_of(node, ctx)
        return isinstance(value, ast.Call) and ctx.qualname(value.func) in PSPECS

    def _report(self, node: ast.Compare, op: ast.cmpop, tup: ast.expr, ctx: Context) -> None:
        if isinstance(tup, ast.Tuple) and any(isinstance(e, ast.Starred) for e in tup.elts):
            fix = None
        else:
            try:
                name, edits = spell_partition_spec(ctx, node)
            except LookupError:
                self.report(node, always="False" if isinstance(op, ast.Eq) else "True")
                return
            if isinstance(tup, ast.Tuple):
                inner = ", ".join(ctx.text(e) for e in tup.elts)
            else:
                inner = f"*{ctx.text(tup)}"
            fix = self.fix(
                ctx.replace(tup, f"{name}({inner})"), *edits, message="Compare with `P(...)`"
            )
        self.report(node, always="False" if isinstance(op, ast.Eq) else "True", fix=fix)
