"""Whether the arrays a loop hands to a function jitted per step change shape every step.

JAX401 says "create the jitted function once, outside the loop": that saves compiles only if
the calls of the hoisted function would hit its cache, that is, if its arguments keep one
shape. A benchmark loop over sizes (`for nb in widths: x = rng.standard_normal((2, nb, n))`)
gives each step arrays of a new shape, so each step compiles whether the jit is built inside
or outside the loop: nothing to report. (Kept out of analysis/loops.py, which is over the
layout's size limit: this is one question asked of a `loops.PerStep`.)
"""

from __future__ import annotations

import ast

from jaxlint.analysis.loops import (
    PerStep,
    _derived_in,
    _enclosing_function,
    _loop_parts,
    _read_as,
    _selects_code,
    loop_varying_names,
)
from jaxlint.analysis.syntax import (
    SCOPE_BOUNDARIES,
    bind_arguments,
    mentions,
    parent,
    positional_params,
    target_names,
    walk_scope,
)

__all__ = ["arguments_pick_program"]


def arguments_pick_program(step: PerStep, call: ast.Call | None) -> bool:
    """`call` (of the function jitted per step, in the loop's own body) is given an array whose
    shape the step picks: made from a step-varying size (`x = jnp.ones((w, 4))`; `shp = (2,
    nb, nc)` then `rng.standard_normal(shp)`; `np.eye(n)[:width]`), or returned by a function
    of this module that uses the step's value as a shape (`T = operands(mesh, nb)`). Each
    step then needs its own program whether or not the jit is hoisted, so hoisting saves no
    compile (v38 candidate lorrax `tests/bench/*`: benchmark loops over batch widths, each
    width warmed up before it is timed; prolix's per-bucket `positions[:n_real]`: JAX401 x12,
    tuning material). Slices that move are left out (a window keeps its length), and so are
    conditions: a helper that only logs on some steps still returns the same shape."""
    index = step._index
    if call is None or not step.direct or index is None:
        return False
    varying = loop_varying_names(step.loop, index=index)
    owner = _enclosing_function(step.loop) or index.tree
    values: dict[str, list[ast.AST]] = {}
    for part in _loop_parts(step.loop):
        for node in walk_scope(part):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    for name in target_names(t):
                        values.setdefault(name, []).append(node.value)
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                for name in target_names(node.target):
                    values.setdefault(name, []).append(node.value)
    seen: set[str] = set()

    def shaped(expr: ast.AST) -> bool:
        for n in ast.walk(expr):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in varying:
                if _selects_code(n, slices=False, shapes_only=True) or _prefix_bound(n):
                    return True
                if n.id not in seen and n.id in values:
                    seen.add(n.id)
                    if any(shaped(v) for v in values[n.id]):
                        return True
            elif isinstance(n, ast.Call) and _shapes_helper(step, n, varying, owner):
                return True
        return False

    return any(shaped(a) for a in [*call.args, *(k.value for k in call.keywords)])


def _shapes_helper(
    step: PerStep, call: ast.Call, names: frozenset[str], owner: ast.AST, depth: int = 0
) -> bool:
    """`call` runs a def of this module that gets one of `names` and uses it as a shape,
    itself or through the defs it calls (two levels: `operands(mesh, nb)` whose
    `_c(nb, nmu)` is `rng.standard_normal(shape)` over its `*shape`)."""
    index = step._index
    if index is None or not mentions(call, names):
        return False
    callee = index.resolve_function(call.func)
    if callee is None or isinstance(callee, ast.Lambda) or callee is owner:
        return False
    carried = {p for p, a in bind_arguments(call, callee).items() if mentions(a, names)}
    positional = positional_params(callee, bound=isinstance(call.func, ast.Attribute))
    vararg = callee.args.vararg  # type: ignore[attr-defined]
    if vararg is not None and mentions(ast.Tuple(call.args[len(positional) :]), names):
        carried.add(vararg.arg)
    if not carried:
        return False
    if _read_as(callee, carried, slices=False, shapes_only=True):
        return True
    if depth >= 2:
        return False
    derived = frozenset(_derived_in(callee, carried))
    return any(
        _shapes_helper(step, c, derived, callee, depth + 1)
        for c in walk_scope(callee)
        if isinstance(c, ast.Call)
    )


def _prefix_bound(name: ast.Name) -> bool:
    """`name` is in the upper bound of a slice whose lower bound is empty or a literal
    (`np.eye(n)[:width]`): the slice's length follows it. (A window that moves,
    `x[i * bs:(i + 1) * bs]`, keeps its length.)"""
    cur: ast.AST = name
    up = parent(cur)
    while up is not None and not isinstance(up, (ast.Slice, ast.stmt, *SCOPE_BOUNDARIES)):
        cur, up = up, parent(up)
    return (
        isinstance(up, ast.Slice)
        and up.upper is cur
        and (up.lower is None or isinstance(up.lower, ast.Constant))
    )
