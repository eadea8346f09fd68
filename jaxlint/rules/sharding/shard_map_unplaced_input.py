"""JAX304 shard-map-unplaced-input: arrays made without a sharding (`jnp.*`, `np.*`, ...)
passed for a sharded `in_specs` entry of a shard_map over an Explicit mesh (the
`jax.make_mesh` default since JAX 0.10), where the call raises instead of resharding.
"""

from __future__ import annotations

import ast

from jaxlint.analysis import syntax
from jaxlint.analysis.syntax import keyword
from jaxlint.analysis.values import resolved
from jaxlint.rules.base import Context, Examples, Rule
from jaxlint.rules.sharding._shard_map import (
    SHARD_MAP_WORDS,
    ShardMapUse,
    shard_map_uses,
    spec_axes,
    spec_entry,
    value_of,
)

UNPLACED_PRODUCERS = ("jax.numpy.", "jax.random.", "numpy.")


class ShardMapUnplacedInput(Rule):
    """Flags unplaced arrays passed to a shard_map over an Explicit mesh.

    What it does: for a `shard_map` whose `mesh=` is a name bound to `jax.make_mesh(...)`
    without `axis_types` (Explicit axes by default since JAX 0.10), finds calls of the
    shard_mapped function (directly, `jax.jit`-wrapped, or decorated) in the same module
    whose argument for a sharded `in_specs` entry (`P("batch")`) was made by `jnp.*`,
    `jax.random.*` or `np.*` without a sharding (a literal call or a name bound once to one).
    Anything else (parameters, `jax.device_put` results, unresolved specs) is left alone.
    Why is this bad: with an Explicit mesh shard_map does not reshard its inputs: `in_specs`
    is an assertion, and the call raises `ValueError: in_specs passed to shard_map:
    P('batch',) does not match the specs of the input: P(None,)` (also under `jax.jit`, and
    for arrays created inside `jax.set_mesh`).
    Example:
        mesh = jax.make_mesh((8,), ("batch",))
        f = jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P("batch"), out_specs=P("batch")))
        x = jnp.arange(64.0)
        f(x)
    Use instead:
        x = jax.device_put(jnp.arange(64.0), NamedSharding(mesh, P("batch")))
        f(x)
    or create the mesh with `axis_types=(jax.sharding.AxisType.Auto,)` to let it reshard.
    Fix: none (placement is a data-pipeline decision).
    """

    code = "JAX304"
    name = "shard-map-unplaced-input"
    message = "`{arg}` is not placed on `{mesh}`: with an Explicit mesh (the `jax.make_mesh` default) shard_map checks in_specs `{spec}` instead of resharding and raises ValueError; place it with `jax.device_put({arg}, NamedSharding({mesh}, {spec}))` or build the mesh with `axis_types=(jax.sharding.AxisType.Auto,)`"
    verifier = "trace"
    prefilter_words = SHARD_MAP_WORDS
    tier = 3
    templates = ("shard-map", "sharding")
    examples = Examples(
        invalid=(
            """
            import jax
            import jax.numpy as jnp
            from jax.sharding import PartitionSpec as P

            mesh = jax.make_mesh((8,), ("batch",))
            double = jax.jit(jax.shard_map(lambda x: x * 2, mesh=mesh, in_specs=P("batch"), out_specs=P("batch")))
            x = jnp.arange(64.0)
            y = double(x)  # error: JAX304
            """,
            """
            from functools import partial

            import jax
            import numpy as np
            from jax.sharding import PartitionSpec as P

            mesh = jax.make_mesh((4,), ("data",))


            @jax.jit
            @partial(jax.shard_map, mesh=mesh, in_specs=(P(), P("data")), out_specs=P())
            def total(w, x):
                return jax.lax.psum((x * w).sum(), "data")


            out = total(np.float32(2.0), np.ones((16, 3)))  # error: JAX304
            """,
        ),
        valid=(
            """
            import jax
            import jax.numpy as jnp
            from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

            mesh = jax.make_mesh((8,), ("batch",))
            double = jax.jit(jax.shard_map(lambda x: x * 2, mesh=mesh, in_specs=P("batch"), out_specs=P("batch")))
            x = jax.device_put(jnp.arange(64.0), NamedSharding(mesh, P("batch")))
            y = double(x)

            auto = jax.make_mesh((8,), ("batch",), axis_types=(AxisType.Auto,))
            triple = jax.jit(jax.shard_map(lambda x: x * 3, mesh=auto, in_specs=P("batch"), out_specs=P("batch")))
            z = triple(jnp.arange(64.0))


            def run(batch):
                return double(batch)
            """,
        ),
    )

    def visit_Module(self, node: ast.Module, ctx: Context) -> None:
        if not ctx.target.reaches("0.9.1"):
            return  # before 0.9 `jax.make_mesh` meshes are Auto: unplaced inputs are fine
        self._visit_module(node, ctx)

    def _visit_module(self, node: ast.Module, ctx: Context) -> None:
        targets: dict[ast.AST, tuple[ShardMapUse, str]] = {}  # binder -> (use, local name)
        for use in shard_map_uses(ctx):
            mesh = use.mesh
            if not isinstance(mesh, ast.Name) or not self._explicit_mesh(mesh, ctx):
                continue
            found = self._callable(use, ctx)
            if found is not None:
                binder, name = found
                targets[binder] = (use, name)
        if not targets:
            return
        for call in ctx.index.calls:
            if not isinstance(call.func, ast.Name):
                continue
            b = ctx.index.binding(call.func.id, ctx.index.scope_of(call.func))
            if b is None or b.node not in targets:
                continue
            use, _ = targets[b.node]
            self._check_call(call, use, ctx)

    def _explicit_mesh(self, mesh: ast.Name, ctx: Context) -> bool:
        value = resolved(ctx.index, mesh)
        if not isinstance(value, ast.Call) or ctx.qualname(value.func) != "jax.make_mesh":
            return False
        return len(value.args) < 3 and keyword(value, "axis_types") is None

    def _callable(self, use: ShardMapUse, ctx: Context) -> tuple[ast.AST, str] | None:
        """What user code calls: `f = [jax.jit(]shard_map(...)[)]` or the decorated def."""
        if use.app in getattr(use.fn, "decorator_list", ()):
            return use.fn, use.fn.name  # type: ignore[attr-defined]
        node: ast.AST = use.app
        parent = syntax.parent(node)
        if (
            isinstance(parent, ast.Call)
            and ctx.qualname(parent.func) == "jax.jit"
            and parent.args
            and parent.args[0] is node
        ):
            node, parent = parent, syntax.parent(parent)
        if (
            isinstance(parent, ast.Assign)
            and parent.value is node
            and len(parent.targets) == 1
            and isinstance(parent.targets[0], ast.Name)
        ):
            return parent, parent.targets[0].id
        return None

    def _check_call(self, call: ast.Call, use: ShardMapUse, ctx: Context) -> None:
        if any(isinstance(a, ast.Starred) for a in call.args):
            return
        n = len(call.args)
        for i, arg in enumerate(call.args):
            entry = spec_entry(use.in_specs, i, n, ctx)
            axes = spec_axes(entry, ctx)
            if not axes or not self._unplaced(arg, ctx):
                continue
            self.report(
                arg,
                arg=ctx.text(arg) if isinstance(arg, ast.Name) else "this array",
                mesh=ctx.text(use.mesh),  # type: ignore[arg-type]
                spec=ctx.text(entry),  # type: ignore[arg-type]
            )

    def _unplaced(self, arg: ast.AST, ctx: Context) -> bool:
        value = value_of(arg, ctx)
        if not isinstance(value, ast.Call):
            return False
        q = ctx.qualname(value.func) or ""
        if not q.startswith(UNPLACED_PRODUCERS) or q.startswith("numpy.random.Generator"):
            return False
        return not any(kw.arg in ("device", "out_sharding", "sharding") for kw in value.keywords)
