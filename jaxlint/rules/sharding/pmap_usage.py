"""JAX301 pmap-usage: `jax.pmap` (and `nnx.pmap`, `eqx.filter_pmap`), and its fix
`jax.pmap(f, axis_name="i")` -> `jax.jit(jax.shard_map(...))` with pmap's own semantics.
The rule's prefilter gate derives from `PMAPS`.

What `jax.pmap` does in JAX 0.10.2 (jax/_src/pmap.py, and checked by running both on 8
simulated CPU devices in tests/test_pmap_migration.py):

- a one-axis mesh over the devices, with `Auto` axis types (`jax.make_mesh` defaults to
  `Explicit`, where `shard_map` only *asserts* `in_specs` and rejects unplaced inputs with
  `ValueError: in_specs passed to shard_map ... does not match`);
- every argument and output split/stacked along its leading axis: `in_specs=P("i")`,
  `out_specs=P("i")`;
- the body sees each device's slice *without* the leading axis, while a `shard_map` body
  sees a block of size 1 along it: pmap squeezes inputs and expands outputs, and so does the
  rewrite (`jax.lax.squeeze(x, (0,))` / `jax.lax.expand_dims(y, (0,))`, the calls pmap uses);
- collectives keep pmap semantics: `check_vma=False`.

Only the simple form is rewritten: one function and a literal `axis_name`, nothing else
(`in_axes`, `static_broadcasted_argnums`, `donate_argnums`, `devices`, ... get no fix), and
no call of the result in this module passes keyword arguments (`shard_map` takes none).
Unsafe: the leading axis must equal `jax.device_count()` (pmap accepted fewer), and on
several hosts pmap maps over local devices while the mesh spans all of them.
"""

from __future__ import annotations

import ast

from jaxlint.analysis import syntax
from jaxlint.analysis.jax_api import PARTIAL
from jaxlint.core.diagnostic import Edit
from jaxlint.edits.imports import ensure_module, spell
from jaxlint.edits.rename import has_star, spell_partition_spec
from jaxlint.rules.base import Context, Examples, Rule, Verify, last_components

PMAPS = {"jax.pmap", "flax.nnx.pmap", "equinox.filter_pmap", "flax.jax_utils.pmap"}
# the qualified names an import must have for a reference through it to name an entry of
# PMAPS: the entries and their dotted prefixes (`jax`, `flax.nnx`)
_PMAP_ROOTS = frozenset(
    ".".join(parts[:i]) for p in PMAPS for parts in [p.split(".")] for i in range(1, len(parts) + 1)
)
_ATTRIBUTE, _LOAD = ast.Attribute, ast.Load
_VISITS = frozenset({"Name", "Attribute"})


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
    verify = Verify(hint="pmap", compare="pmap")
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
    prefilter_words = last_components(PMAPS)  # a pmap name is the name itself

    def unneeded_visits(self) -> frozenset[str]:
        """No import of the module is one of `_PMAP_ROOTS`: then no name or attribute chain
        is an entry of PMAPS (a chain's qualified name is an import's, through aliases, with
        the chain's attributes after it, or a builtin's bare name), and most modules whose
        text says `pmap` (JAX's own) import it from elsewhere."""
        imported = self.ctx.index.imported_names()
        if any(q in _PMAP_ROOTS for qualnames in imported.values() for q in qualnames):
            return frozenset()
        return _VISITS

    def visit_Attribute(self, node: ast.Attribute, ctx: Context) -> None:
        self._check(node, ctx)

    def visit_Name(self, node: ast.Name, ctx: Context) -> None:
        if type(syntax.parent(node)) is _ATTRIBUTE:  # exact: the parser makes no subclasses
            return
        self._check(node, ctx)

    def _check(self, node: ast.AST, ctx: Context) -> None:
        if type(getattr(node, "ctx", None)) is not _LOAD:
            return
        parent = syntax.parent(node)
        if type(parent) is _ATTRIBUTE and parent.value is node:  # type: ignore[union-attr]
            return  # part of a longer chain; the outer attribute is checked
        q = ctx.qualname(node)
        if q in PMAPS:
            fix = None
            # the rewrite writes `jax.shard_map` (JAX 0.6.1 on), `check_vma` and `AxisType`:
            # no fix for a target none of whose versions has them (fortuna, `jax~=0.4.30`:
            # new-user review 4)
            if q == "jax.pmap" and ctx.target.availability("0.6.1") is not None:
                try:
                    edits = pmap_to_shard_map(ctx, node)
                except LookupError:
                    edits = None
                if edits:
                    fix = self.fix(*edits, message="Rewrite as `jax.jit(jax.shard_map(...))`")
            self.report(node, name=q, fix=fix)


# -- the fix: pmap -> jit(shard_map(...)) ------------------------------------------------------


def _axis_name(call: ast.Call, first: int) -> str | None:
    """The literal axis name of `pmap(f, "i")` / `pmap(f, axis_name="i")`, else None."""
    extra = call.args[first:]
    kws = call.keywords
    if len(extra) + len(kws) != 1:
        return None
    node = extra[0] if extra else (kws[0].value if kws[0].arg == "axis_name" else None)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _called_with_keywords(ctx: Context, name: str, binder: ast.AST) -> bool:
    """Whether some call of `name` (bound by `binder`) passes keywords or `*`/`**`, or the
    function escapes (passed on, stored, returned) so that its calls are out of sight: the
    rewrite's `lambda *a` wrapper takes no keywords, and pmap maps keyword arguments too."""
    for call in ctx.index.calls:
        f = call.func
        if not (isinstance(f, ast.Name) and f.id == name):
            continue
        b = ctx.index.binding(name, ctx.index.scope_of(f))
        if b is not None and b.node is binder and (call.keywords or has_star(call)):
            return True
    for node in ast.walk(ctx.index.tree):
        if not (isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)):
            continue
        up = syntax.parent(node)
        if isinstance(up, ast.Call) and up.func is node:
            continue  # a call: its keywords are checked above
        b = ctx.index.binding(name, ctx.index.scope_of(node))
        if b is not None and b.node is binder:
            return True
    return False


class _Spelling:
    """Spells JAX names once, collecting the import edits without duplicates."""

    def __init__(self, ctx: Context, at: ast.AST) -> None:
        self.ctx, self.at = ctx, at
        self.edits: dict[Edit, None] = {}

    def __call__(self, qualname: str) -> str:
        text, edits = spell(self.ctx, qualname)
        if edits:  # one `import jax` reaches every name used here (none is in jax.extend)
            base, edits = ensure_module(self.ctx, "jax")
            text = base + qualname[len("jax") :]
        self.edits.update(dict.fromkeys(edits))
        return text

    def spec(self) -> str:
        text, edits = spell_partition_spec(self.ctx, self.at)
        self.edits.update(dict.fromkeys(edits))
        return text


def _free_name(*nodes: ast.AST) -> str:
    used = {n.id for node in nodes for n in ast.walk(node) if isinstance(n, ast.Name)}
    for name in ("a", "args", "a_", "pmap_args"):
        if name not in used:
            return name
    return "pmap_args_"


def _literal(value: str) -> str:
    """A string literal, double-quoted when that needs no escaping."""
    return f'"{value}"' if value.isprintable() and not set(value) & {'"', "\\"} else repr(value)


def _pieces(s: _Spelling, axis: str, fn_nodes: tuple[ast.AST, ...]) -> tuple[str, str]:
    """(squeeze/expand wrapper taking `f`, shard_map keyword arguments)."""
    a = _free_name(*fn_nodes)
    tree_map, squeeze, expand = s("jax.tree.map"), s("jax.lax.squeeze"), s("jax.lax.expand_dims")
    wrap = (
        f"lambda *{a}: {tree_map}(lambda y: {expand}(y, (0,)), "
        f"{{f}}(*{tree_map}(lambda x: {squeeze}(x, (0,)), {a})))"
    )
    spec = s.spec()
    mesh = (
        f"{s('jax.make_mesh')}(({s('jax.device_count')}(),), ({_literal(axis)},), "
        f"axis_types=({s('jax.sharding.AxisType')}.Auto,))"
    )
    name = _literal(axis)
    kwargs = f"mesh={mesh}, in_specs={spec}({name}), out_specs={spec}({name}), check_vma=False"
    return wrap, kwargs


def pmap_to_shard_map(ctx: Context, ref: ast.AST) -> list[Edit] | None:
    """Edits rewriting the simple pmap form around the reference `ref`, or None."""
    parent = syntax.parent(ref)
    if not isinstance(parent, ast.Call) or has_star(parent):
        return None
    if parent.func is ref:
        return _call_form(ctx, parent)
    if parent.args and parent.args[0] is ref and ctx.qualname(parent.func) in PARTIAL:
        return _decorator_form(ctx, parent)
    return None


def _call_form(ctx: Context, call: ast.Call) -> list[Edit] | None:
    if not call.args or any(kw.arg != "axis_name" for kw in call.keywords):
        return None
    axis = _axis_name(call, 1)
    if axis is None:
        return None
    outer = syntax.parent(call)
    if isinstance(outer, ast.Call) and outer.func is call and (outer.keywords or has_star(outer)):
        return None
    stmt = outer
    if (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
    ):
        if _called_with_keywords(ctx, stmt.targets[0].id, stmt):
            return None
    fn = call.args[0]
    s = _Spelling(ctx, call)
    wrap, kwargs = _pieces(s, axis, (fn,))
    body = wrap.format(
        f=ctx.text(fn) if isinstance(fn, (ast.Name, ast.Attribute)) else f"({ctx.text(fn)})"
    )
    text = f"{s('jax.jit')}({s('jax.shard_map')}({body}, {kwargs}))"
    return [ctx.replace(call, text), *s.edits]


def _decorator_form(ctx: Context, partial: ast.Call) -> list[Edit] | None:
    fn = syntax.parent(partial)
    if (
        not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
        or partial not in fn.decorator_list
    ):
        return None
    if len(partial.args) != 1 or any(kw.arg != "axis_name" for kw in partial.keywords):
        return None
    axis = _axis_name(partial, 1)
    if axis is None or _called_with_keywords(ctx, fn.name, fn):
        return None
    s = _Spelling(ctx, partial)
    wrap, kwargs = _pieces(s, axis, (fn,))
    indent = ctx.line_indent(partial.lineno)
    nl = ctx.source.newline
    text = (
        f"{s('jax.jit')}{nl}"
        f"{indent}@{ctx.text(partial.func)}({s('jax.shard_map')}, {kwargs}){nl}"
        f"{indent}@(lambda f: {wrap.format(f='f')})"
    )
    return [ctx.replace(partial, text), *s.edits]
