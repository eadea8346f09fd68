"""JAX3xx: pmap, shard_map and meshes."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from jaxlint.analysis.transforms import PARTIAL, keyword, literal_ints
from jaxlint.edits.imports import spell
from jaxlint.edits.pmap import pmap_to_shard_map
from jaxlint.edits.rename import spell_partition_spec
from jaxlint.rules.base import Context, Examples, Rule
from jaxlint.rules.deprecations import PMAP_CONFIG, REMOVED_010, ConfigOptions, Move, RenameRule

PMAPS = {"jax.pmap", "flax.nnx.pmap", "equinox.filter_pmap", "flax.jax_utils.pmap"}
SHARD_MAPS = {"jax.shard_map", "jax.experimental.shard_map.shard_map"}
LEGACY_SHARD_MAP = "jax.experimental.shard_map.shard_map"
PSPECS = {"jax.sharding.PartitionSpec", "jax.P"}
MESHES = {"jax.sharding.Mesh", "jax.make_mesh"}
GRADS = {"jax.grad": False, "jax.value_and_grad": True}  # -> returns (value, grad)
REDUCTIONS = {"jax.lax.psum", "jax.lax.pmean"}
TREE_MAPS = {"jax.tree.map", "jax.tree_util.tree_map"}
UNPLACED_PRODUCERS = ("jax.numpy.", "jax.random.", "numpy.")


# -- shared facts about shard_map applications -------------------------------------------------


@dataclass
class ShardMapUse:
    """A function given to `shard_map`, with the arguments that decide its semantics."""

    fn: ast.AST  # def or lambda
    app: ast.Call  # the shard_map(...) / partial(shard_map, ...) / shard_map(...) factory call
    in_specs: ast.expr | None
    mesh: ast.expr | None
    check: ast.expr | None  # check_vma= (check_rep= for the legacy one)
    legacy: bool


def _arg(call: ast.Call, position: int | None, name: str) -> ast.expr | None:
    if position is not None and position < len(call.args):
        a = call.args[position]
        return None if isinstance(a, ast.Starred) else a
    return keyword(call, name)


def _shard_map_args(call: ast.Call, legacy: bool, offset: int) -> tuple:
    """(in_specs, mesh, check) of a shard_map call whose positional args start at `offset`."""
    if legacy:
        return (
            _arg(call, 2 + offset, "in_specs"),
            _arg(call, 1 + offset, "mesh"),
            _arg(call, 4 + offset, "check_rep"),
        )
    return keyword(call, "in_specs"), keyword(call, "mesh"), keyword(call, "check_vma")


def shard_map_uses(ctx: Context) -> Iterator[ShardMapUse]:
    """Every `shard_map(f, ...)`, `@partial(shard_map, ...)`, `@shard_map(...)` in the module."""
    index = ctx.index
    for call in index.calls:
        q = ctx.qualname(call.func)
        if q in SHARD_MAPS and call.args:
            fn = index.resolve_function(call.args[0])
            if fn is not None:
                legacy = q == LEGACY_SHARD_MAP
                yield ShardMapUse(fn, call, *_shard_map_args(call, legacy, 0), legacy)
    for fn in index.functions:
        for dec in getattr(fn, "decorator_list", ()):
            if not isinstance(dec, ast.Call):
                continue
            q = ctx.qualname(dec.func)
            if q in PARTIAL and dec.args and ctx.qualname(dec.args[0]) in SHARD_MAPS:
                legacy = ctx.qualname(dec.args[0]) == LEGACY_SHARD_MAP
                yield ShardMapUse(fn, dec, *_shard_map_args(dec, legacy, 0), legacy)
            elif q == "jax.shard_map" and not dec.args:  # decorator factory form
                yield ShardMapUse(fn, dec, *_shard_map_args(dec, False, 0), False)


def _resolved(node: ast.AST | None, ctx: Context, depth: int = 0) -> ast.AST | None:
    """`node`, or the value of the one assignment a name has."""
    if isinstance(node, ast.Name) and depth < 3:
        b = ctx.index.binding(node.id, ctx.index.scope_of(node))
        if b is not None and b.kind == "assign" and b.value is not None:
            return _resolved(b.value, ctx, depth + 1)
        return None
    return node


def _value_of(node: ast.AST, ctx: Context) -> ast.AST | None:
    """A call expression itself, or the value a name is bound to once."""
    if isinstance(node, ast.Name):
        return _resolved(node, ctx)
    return node if isinstance(node, ast.Call) else None


def spec_axes(node: ast.AST | None, ctx: Context) -> set[str] | None:
    """Mesh axes a `P(...)` literal mentions (None: not a literal spec)."""
    node = _resolved(node, ctx)
    if not isinstance(node, ast.Call) or ctx.qualname(node.func) not in PSPECS:
        return None
    axes: set[str] = set()
    for a in node.args:
        for e in a.elts if isinstance(a, (ast.Tuple, ast.List)) else (a,):
            if isinstance(e, ast.Constant) and isinstance(e.value, str):
                axes.add(e.value)
            elif not (isinstance(e, ast.Constant) and e.value is None):
                return None
    return axes


def spec_entry(
    in_specs: ast.expr | None, position: int, n_params: int, ctx: Context
) -> ast.AST | None:
    """The in_specs entry of the parameter at `position` (a single spec applies to all)."""
    node = _resolved(in_specs, ctx)
    if isinstance(node, (ast.Tuple, ast.List)):
        return node.elts[position] if len(node.elts) == n_params else None
    return node


def _params(fn: ast.AST) -> list[str]:
    args = fn.args  # type: ignore[attr-defined]
    return [a.arg for a in (*args.posonlyargs, *args.args)]


def _literal_axes(node: ast.AST | None) -> set[str] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, (ast.Tuple, ast.List)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts
    ):
        return {e.value for e in node.elts}  # type: ignore[attr-defined]
    return None


# =============================================================================================
# JAX301
# =============================================================================================


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
    Fix: the simple `jax.pmap(f, axis_name="i")` / `@partial(jax.pmap, axis_name="i")` form
    -> `jax.jit(jax.shard_map(...))` with exactly pmap's semantics: an `Auto` one-axis mesh
    over all devices (`jax.make_mesh` would default to `Explicit`, which rejects unplaced
    inputs), `in_specs=P("i")`/`out_specs=P("i")`, the body wrapped to squeeze each
    argument's leading axis and expand each output's (pmap's body sees per-device slices
    without it; a shard_map body sees blocks with it), and `check_vma=False` (unsafe: the
    leading axis must now equal `jax.device_count()`; multi-host code maps over all devices,
    not the local ones). Other pmap arguments (`in_axes`, `static_broadcasted_argnums`,
    `donate_argnums`, ...) or keyword calls of the result: none.
    """

    code = "JAX301"
    name = "pmap-usage"
    message = "`{name}` is in maintenance mode (it is `jit(shard_map(..., check_vma=False))` underneath); migrate to `jax.jit(jax.shard_map(...))` or sharded `jax.jit`"
    fix_safety = "unsafe"
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
        unsafe_fixes=(
            (
                """
                import jax


                def normalize(x):
                    return x / jax.lax.psum(x.sum(), "i")


                step = jax.pmap(normalize, axis_name="i")
                """,
                """
                import jax


                def normalize(x):
                    return x / jax.lax.psum(x.sum(), "i")


                step = jax.jit(jax.shard_map(lambda *a: jax.tree.map(lambda y: jax.lax.expand_dims(y, (0,)), normalize(*jax.tree.map(lambda x: jax.lax.squeeze(x, (0,)), a))), mesh=jax.make_mesh((jax.device_count(),), ("i",), axis_types=(jax.sharding.AxisType.Auto,)), in_specs=jax.P("i"), out_specs=jax.P("i"), check_vma=False))
                """,
            ),
            (
                """
                from functools import partial

                import jax
                from jax.sharding import PartitionSpec as P


                @partial(jax.pmap, axis_name="batch")
                def step(w, x):
                    g = jax.grad(lambda w: ((x @ w) ** 2).mean())(w)
                    return w - 0.1 * jax.lax.pmean(g, "batch")
                """,
                """
                from functools import partial

                import jax
                from jax.sharding import PartitionSpec as P


                @jax.jit
                @partial(jax.shard_map, mesh=jax.make_mesh((jax.device_count(),), ("batch",), axis_types=(jax.sharding.AxisType.Auto,)), in_specs=P("batch"), out_specs=P("batch"), check_vma=False)
                @(lambda f: lambda *a: jax.tree.map(lambda y: jax.lax.expand_dims(y, (0,)), f(*jax.tree.map(lambda x: jax.lax.squeeze(x, (0,)), a))))
                def step(w, x):
                    g = jax.grad(lambda w: ((x @ w) ** 2).mean())(w)
                    return w - 0.1 * jax.lax.pmean(g, "batch")
                """,
            ),
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
            fix = None
            if q == "jax.pmap":
                try:
                    edits = pmap_to_shard_map(ctx, node)
                except LookupError:
                    edits = None
                if edits:
                    fix = self.fix(*edits, message="Rewrite as `jax.jit(jax.shard_map(...))`")
            self.report(node, name=q, fix=fix)


# =============================================================================================
# JAX302
# =============================================================================================

_PXLA_REMOVED = (
    "MapTracer PmapExecutable parallel_callable shard_args Chunked NoSharding Replicated "
    "ShardedAxis ShardingSpec Unstacked spec_to_indices"
).split()
_DROP_IN = (
    "use `jax.device_put(x, NamedSharding(mesh, P()))` for true replication, or the drop-in "
    "helpers in the pmap migration guide (docs.jax.dev/en/latest/migrate_pmap.html)"
)


class RemovedPmapApi(ConfigOptions, RenameRule):
    """Flags pmap-era APIs removed in JAX 0.10.0.

    What it does: finds `jax.device_put_replicated`, `jax.device_put_sharded`,
    `jax.sharding.PmapSharding`, the `jax.interpreters.pxla` pmap internals (`ShardingSpec`,
    `Chunked`, `NoSharding`, `Replicated`, `ShardedAxis`, `Unstacked`, `spec_to_indices`,
    `MapTracer`, `PmapExecutable`, `parallel_callable`, `shard_args`), and
    `jax.config.update("jax_pmap_shmap_merge" | "jax_pmap_no_rank_reduction" |
    "jax_eager_pmap", ...)` (or the `JAX_PMAP_SHMAP_MERGE` environment variable).
    Why is this bad: each raises `AttributeError` in JAX 0.10.2 (e.g. `jax.device_put_replicated
    is deprecated; use jax.device_put instead`, `Unrecognized config option:
    jax_pmap_shmap_merge`): pmap is now `jit(shard_map(...))` and the old implementation
    cannot be selected.
    Example:
        jax.config.update("jax_pmap_shmap_merge", True)
        params = jax.device_put_replicated(params, jax.local_devices())
    Use instead:
        params = jax.device_put(params, NamedSharding(mesh, P()))
    Fix: delete the config line (safe when it set the behaviour JAX now always has; unsafe
    otherwise); the rest none (replication changes shapes: the stacked leading axis goes).
    """

    code = "JAX302"
    name = "removed-pmap-api"
    fix_safety = "safe"
    verifier = "import"
    tier = 2
    status = REMOVED_010
    REMOVED = "0.10"
    CONFIG = PMAP_CONFIG
    prefilter_words = (
        "device_put_replicated",
        "device_put_sharded",
        "PmapSharding",
        "pxla",
        *(w for o in PMAP_CONFIG for w in (o, o.upper())),
    )
    RENAMES = {
        "jax.device_put_replicated": Move(None, None, _DROP_IN, deprecated="0.8.1"),
        "jax.device_put_sharded": Move(None, None, _DROP_IN, deprecated="0.8.1"),
        "jax.sharding.PmapSharding": Move(None, None, "use `jax.NamedSharding`"),
        **{
            f"jax.interpreters.pxla.{n}": Move(
                None, None, "use `jax.shard_map` instead of `jax.pmap`"
            )
            for n in _PXLA_REMOVED
        },
    }
    examples = Examples(
        invalid=(
            """
            import jax

            jax.config.update("jax_pmap_shmap_merge", True)  # error: JAX302
            params = jax.device_put_replicated({"w": 1.0}, jax.local_devices())  # error: JAX302
            """,
            """
            from jax.interpreters.pxla import ShardingSpec  # error: JAX302
            from jax.sharding import PmapSharding  # error: JAX302
            """,
        ),
        valid=(
            """
            import jax
            from jax.sharding import NamedSharding, PartitionSpec as P

            mesh = jax.make_mesh((jax.device_count(),), ("i",))
            params = jax.device_put({"w": 1.0}, NamedSharding(mesh, P()))
            jax.config.update("jax_enable_x64", True)
            """,
        ),
        fixes=(
            (
                """
                import os

                import jax

                os.environ["JAX_PMAP_SHMAP_MERGE"] = "1"
                jax.config.update("jax_pmap_shmap_merge", True)
                step = jax.pmap(lambda x: x * 2)
                """,
                """
                import os

                import jax

                step = jax.pmap(lambda x: x * 2)
                """,
            ),
        ),
    )


# =============================================================================================
# JAX303
# =============================================================================================


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

    def visit_Module(self, node: ast.Module, ctx: Context) -> None:
        for use in shard_map_uses(ctx):
            if use.check is not None and not (
                isinstance(use.check, ast.Constant) and use.check.value is True
            ):
                continue  # check_vma=False (pmap semantics) or unknown
            self._check(use, ctx)

    def _check(self, use: ShardMapUse, ctx: Context) -> None:
        params = _params(use.fn)
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


# =============================================================================================
# JAX304
# =============================================================================================


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
        value = _resolved(mesh, ctx)
        if not isinstance(value, ast.Call) or ctx.qualname(value.func) != "jax.make_mesh":
            return False
        return len(value.args) < 3 and keyword(value, "axis_types") is None

    def _callable(self, use: ShardMapUse, ctx: Context) -> tuple[ast.AST, str] | None:
        """What user code calls: `f = [jax.jit(]shard_map(...)[)]` or the decorated def."""
        if use.app in getattr(use.fn, "decorator_list", ()):
            return use.fn, use.fn.name  # type: ignore[attr-defined]
        node: ast.AST = use.app
        parent = getattr(node, "jl_parent", None)
        if (
            isinstance(parent, ast.Call)
            and ctx.qualname(parent.func) == "jax.jit"
            and parent.args
            and parent.args[0] is node
        ):
            node, parent = parent, getattr(parent, "jl_parent", None)
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
        value = _value_of(arg, ctx)
        if not isinstance(value, ast.Call):
            return False
        q = ctx.qualname(value.func) or ""
        if not q.startswith(UNPLACED_PRODUCERS) or q.startswith("numpy.random.Generator"):
            return False
        return not any(kw.arg in ("device", "out_sharding", "sharding") for kw in value.keywords)


# =============================================================================================
# JAX305
# =============================================================================================


class MeshContextManager(Rule):
    """Flags `with mesh:` on a `jax.sharding.Mesh`.

    What it does: finds `with m:` where `m` is a `jax.sharding.Mesh(...)` /
    `jax.make_mesh(...)` call or a name bound once to one.
    Why is this bad: `with mesh:` is deprecated since JAX 0.10.1 (`DeprecationWarning:
    with mesh: context manager has been deprecated. Please use with jax.set_mesh(mesh)`).
    It only sets the legacy resource env: `jax.jit(..., in_shardings=P(...))` and
    `jax.shard_map` without `mesh=` raise inside it, while they work under `jax.set_mesh`.
    Example:
        with mesh:
            y = step(x)
    Use instead:
        with jax.set_mesh(mesh):
            y = step(x)
    Fix: -> `with jax.set_mesh(mesh):` (safe; unsafe when the module uses `pjit`,
    `in_shardings=` or `pxla.thread_resources`: `pjit` with bare `PartitionSpec`s needs the
    old context, and arrays created under `set_mesh` are committed to the mesh, so a
    `jit` with different `in_shardings` then rejects them). `with mesh as m:` gets no fix
    (`set_mesh` yields None).
    """

    silent_in_compat_code = True  # old-JAX branches of compatibility code
    code = "JAX305"
    name = "mesh-context-manager"
    message = "`with {mesh}:` is deprecated (JAX 0.10.1) and sets only the legacy mesh context; use `with jax.set_mesh({mesh}):`"
    fix_safety = "safe"
    verifier = "import"
    tier = 2
    templates = ("sharding",)
    examples = Examples(
        invalid=(
            """
            import jax
            import numpy as np
            from jax.sharding import Mesh

            mesh = Mesh(np.array(jax.devices()), ("data",))
            with mesh:  # error: JAX305
                y = jax.numpy.ones(4)
            with jax.make_mesh((1,), ("x",)) as m:  # error: JAX305
                pass
            """,
        ),
        valid=(
            """
            import contextlib

            import jax

            mesh = jax.make_mesh((1,), ("x",))
            with jax.set_mesh(mesh):
                pass
            lock = contextlib.nullcontext()
            with lock:
                pass
            """,
        ),
        fixes=(
            (
                """
                from jax.sharding import Mesh

                def run(devices, step, x):
                    mesh = Mesh(devices, ("data",))
                    with mesh, open("log.txt") as log:
                        return step(x)
                """,
                """
                from jax.sharding import Mesh
                import jax

                def run(devices, step, x):
                    mesh = Mesh(devices, ("data",))
                    with jax.set_mesh(mesh), open("log.txt") as log:
                        return step(x)
                """,
            ),
        ),
        unsafe_fixes=(
            (
                """
                import jax
                from jax.sharding import NamedSharding, PartitionSpec as P

                mesh = jax.make_mesh((1,), ("x",))
                f = jax.jit(lambda a: a, in_shardings=NamedSharding(mesh, P("x")))
                with mesh:
                    y = f(jax.numpy.ones(4))
                """,
                """
                import jax
                from jax.sharding import NamedSharding, PartitionSpec as P

                mesh = jax.make_mesh((1,), ("x",))
                f = jax.jit(lambda a: a, in_shardings=NamedSharding(mesh, P("x")))
                with jax.set_mesh(mesh):
                    y = f(jax.numpy.ones(4))
                """,
            ),
        ),
    )

    def visit_With(self, node: ast.With, ctx: Context) -> None:
        if not ctx.target.reaches("0.10.1"):
            return  # `with mesh:` is deprecated from 0.10.1; before, it is the way
        have = ctx.target.availability("0.7.1")  # `jax.set_mesh`
        for item in node.items:
            expr = item.context_expr
            if not self._is_mesh(expr, ctx):
                continue
            fix = None
            if item.optional_vars is None and have is not None:
                try:
                    text, edits = spell(ctx, "jax.set_mesh")
                    fix = self.fix(
                        ctx.replace(expr, f"{text}({ctx.text(expr)})"),
                        *edits,
                        safety="unsafe" if self._legacy_users(ctx) or have != "safe" else "safe",
                        message="Use `jax.set_mesh`",
                    )
                except LookupError:
                    fix = None
            shown = ctx.text(expr) if isinstance(expr, ast.Name) else "mesh"
            self.report(expr, mesh=shown, fix=fix)

    def _is_mesh(self, expr: ast.AST, ctx: Context) -> bool:
        value = _value_of(expr, ctx)
        return isinstance(value, ast.Call) and ctx.qualname(value.func) in MESHES

    def _legacy_users(self, ctx: Context) -> bool:
        """The module passes `in_shardings=`, or imports from `pjit` / `pxla`."""
        cached = getattr(self, "_legacy", None)
        if cached is None:
            legacy = ("jax.experimental.pjit", "jax.interpreters.pxla")
            cached = (
                any(kw.arg == "in_shardings" for call in ctx.index.calls for kw in call.keywords)
                or any(
                    (ctx.qualname(call.func) or "").startswith(legacy) for call in ctx.index.calls
                )
                or any(
                    b.kind == "import" and (b.qualname or "").startswith(legacy)
                    for scope in ctx.index.scopes.values()
                    for bindings in scope.bindings.values()
                    for b in bindings
                )
            )
            self._legacy = cached
        return cached


# =============================================================================================
# JAX306
# =============================================================================================


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

    def visit_Compare(self, node: ast.Compare, ctx: Context) -> None:
        if not ctx.target.reaches("0.10"):
            return  # before 0.10 `PartitionSpec` is a tuple subclass: the comparison works
        left = node.left
        for op, right in zip(node.ops, node.comparators):
            if isinstance(op, (ast.Eq, ast.NotEq)):
                for spec, tup in ((left, right), (right, left)):
                    is_tuple = isinstance(tup, ast.Tuple) or (
                        isinstance(tup, ast.Name) and isinstance(_resolved(tup, ctx), ast.Tuple)
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
            v = _resolved(v, ctx) if isinstance(v, ast.Name) else v
            return isinstance(v, ast.Call) and ctx.qualname(v.func) in (
                "jax.sharding.NamedSharding",
                "jax.NamedSharding",
            )
        value = _value_of(node, ctx)
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


# =============================================================================================
# JAX307
# =============================================================================================


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
        value = _resolved(name, ctx)
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
