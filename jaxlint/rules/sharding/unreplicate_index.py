"""JAX307 unreplicate-index (opt-in): `x[0]` / `unreplicate(x)` on pmap outputs, which reads
one device's copy under pmap but is a computation on one global array (possibly a
gather across devices) in the shard_map era.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.jax_api import PARTIAL
from jaxlint.analysis.values import resolved
from jaxlint.rules.base import Context, Examples, Rule
from jaxlint.rules.sharding._shard_map import TREE_MAPS


class UnreplicateIndex(Rule):
    """Flags `x[0]` / `unreplicate(x)` on pmap outputs (opt-in).

    What it does: finds `out[0]`, `jax.tree.map(lambda a: a[0], out)` where `out` comes from
    calling a function made by `jax.pmap` in this module, and
    `flax.jax_utils.unreplicate(...)`.
    Why is this bad: a pmap output is one global array sharded over the devices; indexing it
    (which `unreplicate` does for every leaf) is a computation on that array, which in the
    shard_map era can gather across devices, where reading one device's copy is free
    (migrate_pmap guide; not measured on CPU).
    Example:
        params = pmapped_step(params, batch)
        host_params = jax.tree.map(lambda a: a[0], params)
    Use instead:
        host_params = jax.tree.map(lambda a: a.addressable_shards[0].data, params)
    Fix: none (the result is a per-device buffer, not a fresh array).
    """

    code = "JAX307"
    name = "unreplicate-index"
    message = "{what} on a pmap output indexes the device-sharded global array; read one device's copy with `.addressable_shards[0].data`"
    verifier = "lower"
    default = False
    tier = 3
    templates = ("shard-map",)
    examples = Examples(
        invalid=(
            """
            from functools import partial

            import jax
            from flax import jax_utils


            @partial(jax.pmap, axis_name="i")
            def step(x):
                return jax.lax.pmean(x, "i")


            out = step(jax.numpy.ones((jax.device_count(), 3)))
            first = out[0]  # error: JAX307
            rows = jax.tree.map(lambda a: a[0], out)  # error: JAX307
            params = jax_utils.unreplicate(out)  # error: JAX307
            """,
        ),
        valid=(
            """
            import jax

            step = jax.pmap(lambda x: x * 2)
            out = step(jax.numpy.ones((jax.device_count(), 3)))
            first = out.addressable_shards[0].data
            other = jax.numpy.ones(3)[0]
            """,
        ),
    )

    def visit_Subscript(self, node: ast.Subscript, ctx: Context) -> None:
        if not isinstance(node.ctx, ast.Load) or not _is_zero(node.slice):
            return
        if isinstance(node.value, ast.Name) and self._pmap_output(node.value, ctx):
            self.report(node, what=f"`{node.value.id}[0]`")

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        q = ctx.qualname(node.func)
        if q == "flax.jax_utils.unreplicate":
            self.report(node, what="`unreplicate`")
        elif q in TREE_MAPS and len(node.args) == 2 and isinstance(node.args[0], ast.Lambda):
            lam, tree = node.args[0], node.args[1]
            body = lam.body
            if (
                lam.args.args
                and isinstance(body, ast.Subscript)
                and isinstance(body.value, ast.Name)
                and body.value.id == lam.args.args[0].arg
                and _is_zero(body.slice)
                and isinstance(tree, ast.Name)
                and self._pmap_output(tree, ctx)
            ):
                self.report(node, what="indexing every leaf with `[0]`")

    def _pmap_output(self, name: ast.Name, ctx: Context) -> bool:
        value = resolved(ctx.index, name)
        if not isinstance(value, ast.Call):
            return False
        f = value.func
        if isinstance(f, ast.Call):  # jax.pmap(f)(x)
            return ctx.qualname(f.func) == "jax.pmap"
        if not isinstance(f, ast.Name):
            return False
        b = ctx.index.binding(f.id, ctx.index.scope_of(f))
        if b is None:
            return False
        if b.kind == "assign" and isinstance(b.value, ast.Call):
            return ctx.qualname(b.value.func) == "jax.pmap"
        if b.kind == "def":
            for dec in b.node.decorator_list:  # type: ignore[union-attr]
                if ctx.qualname(dec) == "jax.pmap":
                    return True
                if (
                    isinstance(dec, ast.Call)
                    and ctx.qualname(dec.func) in PARTIAL
                    and dec.args
                    and ctx.qualname(dec.args[0]) == "jax.pmap"
                ):
                    return True
        return False


def _is_zero(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value == 0 and not isinstance(node.value, bool)
