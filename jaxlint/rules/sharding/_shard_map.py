"""Facts shared by the sharding rules: which functions are given to `shard_map` (and with
which mesh, specs and `check_vma`), and which axes a `PartitionSpec` names. JAX303 and
JAX304 read the `shard_map` applications; what a spec or mesh name was bound to is
`analysis.values.resolved` (`value_of` adds calls written in place). `SHARD_MAP_WORDS`, from
`SHARD_MAPS`, is the prefilter's gate for JAX303/JAX304.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from jaxlint.analysis.jax_api import PARTIAL
from jaxlint.analysis.syntax import keyword
from jaxlint.analysis.values import resolved
from jaxlint.rules.base import Context, last_components

SHARD_MAPS = {"jax.shard_map", "jax.experimental.shard_map.shard_map"}
LEGACY_SHARD_MAP = "jax.experimental.shard_map.shard_map"
PSPECS = {"jax.sharding.PartitionSpec", "jax.P"}
TREE_MAPS = {"jax.tree.map", "jax.tree_util.tree_map"}
# JAX303/JAX304 look only at functions given to a `shard_map` they resolve by name
SHARD_MAP_WORDS = last_components(SHARD_MAPS)


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


def value_of(node: ast.AST, ctx: Context) -> ast.AST | None:
    """A call expression itself, or the value a name is bound to once."""
    if isinstance(node, ast.Name):
        return resolved(ctx.index, node)
    return node if isinstance(node, ast.Call) else None


def spec_axes(node: ast.AST | None, ctx: Context) -> set[str] | None:
    """Mesh axes a `P(...)` literal mentions (None: not a literal spec)."""
    node = resolved(ctx.index, node)
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
    node = resolved(ctx.index, in_specs)
    if isinstance(node, (ast.Tuple, ast.List)):
        return node.elts[position] if len(node.elts) == n_params else None
    return node
