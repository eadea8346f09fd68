"""Whether per-step work is worth moving above its loop, and whether a statement can move.

The compile rules that flag work repeated in every step of a loop (a jit built per step, a
static argument or a shape that changes per step, a donation, a host conversion) share two
questions about the loop that `analysis.loops` locates: is it a loop over a handful of
written-out values, where per-step costs do not add up; and can `name = ...` move above the
loop unchanged, which the hoisting fixes rely on.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.loops import FEW_STEPS, PerStep


def few_steps(step: PerStep) -> bool:
    """A loop over a handful of written-out values: per-step costs do not add up."""
    count = step.trip_count
    return count is not None and count <= FEW_STEPS


def movable_above(index: ModuleIndex, stmt: ast.stmt, name: str, loop: ast.AST) -> bool:
    """`name = ...` can move above the loop unchanged: its only binding in the scope, and
    not read in the loop before it."""
    scope = index.scope_of(stmt)
    return len(scope.bindings.get(name, ())) == 1 and not read_before(loop, name, stmt)


def read_before(loop: ast.AST, name: str, stmt: ast.stmt) -> bool:
    """`name` is read somewhere in `loop` at a position before `stmt`."""
    for node in ast.walk(loop):
        if (
            isinstance(node, ast.Name)
            and node.id == name
            and isinstance(node.ctx, ast.Load)
            and (node.lineno, node.col_offset) < (stmt.lineno, stmt.col_offset)
        ):
            return True
    return False
