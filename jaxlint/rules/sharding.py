"""JAX3xx: pmap, shard_map and meshes."""

from __future__ import annotations

import ast

from jaxlint.rules.base import Context, Examples, Rule

PMAPS = {"jax.pmap", "flax.nnx.pmap", "equinox.filter_pmap", "flax.jax_utils.pmap"}


class PmapUsage(Rule):
    """Flags `jax.pmap` (and `nnx.pmap`, `eqx.filter_pmap`).

    What it does: finds uses of `jax.pmap` as a decorator, a call or a reference.
    Why is this bad: `pmap` is in maintenance mode and is implemented as
    `jit(shard_map(..., check_vma=False))`; it compiles one program per device count, stacks a
    leading device axis onto every array, and its helpers (`device_put_replicated`,
    `PmapSharding`, `jax_pmap_shmap_merge`) were removed in 0.10.0.
    Example:
        @functools.partial(jax.pmap, axis_name="batch")
        def step(params, batch): ...
    Use instead:
        mesh = jax.make_mesh((jax.device_count(),), ("batch",))
        step = jax.jit(jax.shard_map(step_fn, mesh=mesh, in_specs=(P(), P("batch")),
                                     out_specs=P(), check_vma=False))
    or global-view `jax.jit` over `NamedSharding`-placed arrays. Keep `check_vma=False` when
    the body `pmean`s gradients pmap-style (with the default `check_vma=True` those
    gradients are already all-reduced and come out N times too large).
    Fix: the simple `jax.pmap(f, axis_name=...)` form -> `jax.jit(jax.shard_map(...))`
    (unsafe); otherwise manual.
    """

    code = "JAX301"
    name = "pmap-usage"
    message = "`{name}` is in maintenance mode (it is `jit(shard_map(..., check_vma=False))` underneath); migrate to `jax.jit(jax.shard_map(...))` or sharded `jax.jit`"
    verifier = "numeric"
    templates = ("shard-map", "sharding")
    examples = Examples(
        invalid=(
            """
            import jax
            from functools import partial

            @partial(jax.pmap, axis_name="i")  # error: JAX301
            def step(x):
                return jax.lax.psum(x, "i")
            """,
            """
            from jax import pmap

            def f(x):
                return x * 2

            g = pmap(f)  # error: JAX301
            """,
        ),
        valid=(
            """
            import jax

            f = jax.jit(lambda x: x * 2)
            pmap = "not jax"
            """,
        ),
    )

    def visit_Attribute(self, node: ast.Attribute, ctx: Context) -> None:
        self._check(node, ctx)

    def visit_Name(self, node: ast.Name, ctx: Context) -> None:
        if isinstance(getattr(node, "jl_parent", None), ast.Attribute):
            return
        self._check(node, ctx)

    def _check(self, node: ast.AST, ctx: Context) -> None:
        if not isinstance(getattr(node, "ctx", None), ast.Load):
            return
        parent = getattr(node, "jl_parent", None)
        if isinstance(parent, ast.Attribute) and parent.value is node:
            return  # part of a longer chain; the outer attribute is checked
        q = ctx.qualname(node)
        if q in PMAPS:
            self.report(node, name=q)
