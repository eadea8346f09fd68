"""JAX303 shard-map-double-grad-reduction: a pmap-style gradient all-reduce (`psum`/`pmean`
of a gradient) inside a `check_vma=True` shard_map, where JAX already reduced it.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.syntax import keyword, literal_ints, positional_params
from jaxlint.rules.base import Context, Examples, Rule, Verify
from jaxlint.rules.sharding._shard_map import (
    SHARD_MAP_WORDS,
    TREE_MAPS,
    ShardMapUse,
    shard_map_uses,
    spec_axes,
    spec_entry,
)

GRADS = {"jax.grad": False, "jax.value_and_grad": True}  # -> returns (value, grad)
REDUCTIONS = {"jax.lax.psum", "jax.lax.pmean"}


def _literal_axes(node: ast.AST | None) -> set[str] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, (ast.Tuple, ast.List)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts
    ):
        return {e.value for e in node.elts}  # type: ignore[attr-defined]
    return None


class ShardMapDoubleGradReduction(Rule):
    """Flags a pmap-style gradient all-reduce inside a `check_vma=True` shard_map.

    What it does: in a function given to `jax.shard_map` (call, `partial` or decorator
    factory) without `check_vma=False`, finds `lax.psum`/`lax.pmean` applied to the output of
    `jax.grad`/`jax.value_and_grad` (directly, through a name, or in a `jax.tree.map` lambda)
    when the differentiated parameter's `in_specs` entry is a `P(...)` literal that does not
    mention the reduced axis (replicated over it). Unresolvable specs are not reported.
    Why is this bad: with `check_vma=True` (the default) shard_map tracks which values vary
    across devices; the gradient of a replicated input is already summed over the axis (the
    implicit `pcast` to varying transposes to a `psum`). The pmap habit of `pmean`-ing the
    gradient then gives an N times too large gradient (8x on 8 devices), silently.
    Example:
        @partial(jax.shard_map, mesh=mesh, in_specs=(P(), P("batch")), out_specs=P())
        def step(w, x):
            g = jax.grad(loss)(w, x)
            return w - lr * jax.lax.pmean(g, "batch")
    Use instead:
        # A: keep check_vma, differentiate the averaged loss, no collective on the gradient
        g = jax.grad(lambda w: jax.lax.pmean(loss(w, x), "batch"))(w)
        # B: pmap semantics: the verbatim body with check_vma=False
        @partial(jax.shard_map, ..., check_vma=False)
    Fix: none (which of the two forms fits is a design choice).
    """

    code = "JAX303"
    name = "shard-map-double-grad-reduction"
    message = "under `check_vma=True` the gradient w.r.t. `{param}` (in_specs `{spec}`, replicated over {axes}) is already summed over the devices; this `{op}` makes it N times too large. Either drop it and differentiate the averaged loss (`jax.grad(lambda {param}: jax.lax.pmean(loss(...), {axis}))`), or pass `check_vma=False` to keep pmap semantics"
    verifier = "numeric"
    verify = Verify(hint="sharded", compare="check-vma-off")
    tier = 2
    templates = ("shard-map",)
    examples = Examples(
        invalid=(
            """
            from functools import partial

            import jax
            import jax.numpy as jnp
            from jax.sharding import PartitionSpec as P

            mesh = jax.make_mesh((8,), ("batch",))


            def loss_fn(w, x, y):
                return jnp.mean((x @ w - y) ** 2)


            @jax.jit
            @partial(jax.shard_map, mesh=mesh, in_specs=(P(), P("batch"), P("batch")), out_specs=(P(), P()))
            def step(w, x, y):
                loss, g = jax.value_and_grad(loss_fn)(w, x, y)
                g = jax.lax.pmean(g, "batch")  # error: JAX303
                return w - 0.1 * g, jax.lax.pmean(loss, "batch")
            """,
            """
            import jax
            from jax import lax
            from jax.experimental.shard_map import shard_map as sm
            from jax.sharding import PartitionSpec as P

            mesh = jax.make_mesh((4,), ("dp",))


            def update(params, batch):
                grads = jax.grad(lambda p: (batch * p["w"]).sum())(params)
                grads = jax.tree.map(lambda t: lax.psum(t, "dp") / 4, grads)  # error: JAX303
                return params, grads


            update_sharded = sm(update, mesh, (P(), P("dp")), P())
            """,
        ),
        valid=(
            """
            from functools import partial

            import jax
            import jax.numpy as jnp
            from jax.sharding import PartitionSpec as P

            mesh = jax.make_mesh((8,), ("batch",))


            def loss_fn(w, x, y):
                return jnp.mean((x @ w - y) ** 2)


            @partial(jax.shard_map, mesh=mesh, in_specs=(P(), P("batch"), P("batch")), out_specs=P())
            def step_a(w, x, y):
                g = jax.grad(lambda w: jax.lax.pmean(loss_fn(w, x, y), "batch"))(w)
                return w - 0.1 * g


            @partial(jax.shard_map, mesh=mesh, in_specs=(P(), P("batch"), P("batch")), out_specs=P(), check_vma=False)
            def step_b(w, x, y):
                g = jax.grad(loss_fn)(w, x, y)
                return w - 0.1 * jax.lax.pmean(g, "batch")


            @partial(jax.shard_map, mesh=mesh, in_specs=(P("batch"), P("batch")), out_specs=P())
            def sharded_params(w, x):
                g = jax.grad(lambda w: (x * w).sum())(w)
                return jax.lax.psum(g, "batch")
            """,
        ),
    )
    prefilter_words = SHARD_MAP_WORDS

    def visit_Module(self, node: ast.Module, ctx: Context) -> None:
        for use in shard_map_uses(ctx):
            if use.check is not None and not (
                isinstance(use.check, ast.Constant) and use.check.value is True
            ):
                continue  # check_vma=False (pmap semantics) or unknown
            self._check(use, ctx)

    def _check(self, use: ShardMapUse, ctx: Context) -> None:
        params = positional_params(use.fn)
        grads: dict[str, tuple[str, ast.AST]] = {}  # name holding a gradient -> (param, spec)
        direct: dict[int, tuple[str, ast.AST]] = {}  # id(grad call) -> (param, spec)
        body = use.fn.body if isinstance(use.fn.body, list) else [use.fn.body]  # type: ignore[attr-defined]
        nodes = [n for stmt in body for n in ast.walk(stmt)]
        for n in nodes:
            if isinstance(n, ast.Call):
                found = self._grad_call(n, params, use, ctx)
                if found is not None:
                    direct[id(n)] = found
        for n in nodes:
            if isinstance(n, ast.Assign) and id(n.value) in direct:
                for name in self._grad_targets(n, n.value, ctx):
                    grads[name] = direct[id(n.value)]
        for n in nodes:
            if not isinstance(n, ast.Call):
                continue
            q = ctx.qualname(n.func)
            if q in REDUCTIONS and n.args:
                src = n.args[0]
                hit = direct.get(id(src)) or (
                    grads.get(src.id) if isinstance(src, ast.Name) else None
                )
                if hit is not None:
                    self._report(n, hit, ctx)
            elif q in TREE_MAPS and len(n.args) >= 2 and isinstance(n.args[0], ast.Lambda):
                src = n.args[1]
                hit = direct.get(id(src)) or (
                    grads.get(src.id) if isinstance(src, ast.Name) else None
                )
                lam = n.args[0]
                if hit is None or not lam.args.args:
                    continue
                leaf = lam.args.args[0].arg
                for inner in ast.walk(lam.body):
                    if (
                        isinstance(inner, ast.Call)
                        and ctx.qualname(inner.func) in REDUCTIONS
                        and inner.args
                        and isinstance(inner.args[0], ast.Name)
                        and inner.args[0].id == leaf
                    ):
                        self._report(inner, hit, ctx)

    def _grad_call(self, call: ast.Call, params: list[str], use: ShardMapUse, ctx: Context):  # noqa: ANN202
        """`jax.grad(f, ...)(w, ...)` differentiating a replicated parameter: (param, spec)."""
        maker = call.func
        if not isinstance(maker, ast.Call) or ctx.qualname(maker.func) not in GRADS:
            return None
        argnums = literal_ints(keyword(maker, "argnums"))
        if argnums is None or not argnums:
            argnums = (0,)
        for pos in argnums:
            if pos >= len(call.args) or not isinstance(call.args[pos], ast.Name):
                continue
            name = call.args[pos].id  # type: ignore[attr-defined]
            if name not in params:
                continue
            entry = spec_entry(use.in_specs, params.index(name), len(params), ctx)
            axes = spec_axes(entry, ctx)
            if axes is not None:
                return name, entry
        return None

    def _grad_targets(self, assign: ast.Assign, call: ast.Call, ctx: Context) -> list[str]:
        maker = call.func
        returns_value = GRADS[ctx.qualname(maker.func)]  # type: ignore[arg-type,attr-defined]
        has_aux = keyword(maker, "has_aux")  # type: ignore[arg-type]
        aux = isinstance(has_aux, ast.Constant) and has_aux.value is True
        out = []
        for t in assign.targets:
            if isinstance(t, ast.Name) and not returns_value and not aux:
                out.append(t.id)
            elif isinstance(t, (ast.Tuple, ast.List)) and len(t.elts) == 2:
                g = t.elts[1] if returns_value else t.elts[0]
                if isinstance(g, ast.Name):
                    out.append(g.id)
        return out

    def _report(self, red: ast.Call, hit: tuple[str, ast.AST], ctx: Context) -> None:
        param, entry = hit
        reduced = _literal_axes(red.args[1] if len(red.args) > 1 else keyword(red, "axis_name"))
        spec_mentions = spec_axes(entry, ctx) or set()
        if reduced is None or reduced & spec_mentions:
            return  # unknown axis, or the parameter varies over it: a real reduction
        axis = sorted(reduced)[0]
        self.report(
            red,
            param=param,
            spec=ctx.text(entry),
            axes=", ".join(f"`{a}`" for a in sorted(reduced)),
            op=ctx.qualname(red.func).rpartition(".")[2],  # type: ignore[union-attr]
            axis=repr(axis),
        )
