"""Whether per-step work is worth moving above its loop, and whether a statement can move.

The compile rules that flag work repeated in every step of a loop (a jit built per step, a
static argument or a shape that changes per step, a donation, a host conversion) share two
questions about the loop that `analysis.loops` locates: is it a loop over a handful of
written-out values, where per-step costs do not add up; and can `name = ...` move above the
loop unchanged, which the hoisting fixes rely on. Fixes that insert a statement also ask
whether a name is certainly bound at a point (`bound_on_every_path`).
"""

from __future__ import annotations

import ast

from jaxlint.analysis.flow.graph import flow_graphs
from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.loops import FEW_STEPS, PerStep

# how many written-out steps a per-step cost needs before it adds up, by what one step
# costs: a compile or a transfer of data of unknown size (a trace and an XLA compile take
# 0.1-1 s: a handful already shows) or a host-to-device copy of a few written-out numbers
# (tens of microseconds: a test's `for _ in range(5): jnp.array([8.0, 0.0])` costs nothing
# measurable; perch's quantizer test)
FEW_STEPS_BY_COST = {"costly": FEW_STEPS, "small-transfer": 10}


def few_steps(step: PerStep, cost: str = "costly") -> bool:
    """A loop over a handful of written-out values: per-step costs of this kind do not add
    up (`cost`: a key of FEW_STEPS_BY_COST)."""
    count = step.trip_count
    return count is not None and count <= FEW_STEPS_BY_COST[cost]


def literal_numbers(node: ast.AST) -> bool:
    """A display of written-out numbers (`[8.0, 0.0]`, `((1, 2), (3, 4))`): a few bytes."""
    if isinstance(node, (ast.List, ast.Tuple)):
        return all(literal_numbers(e) for e in node.elts)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float, complex, bool))


def movable_above(index: ModuleIndex, stmt: ast.stmt, name: str, loop: ast.AST) -> bool:
    """`name = ...` can move above the loop unchanged: its only binding in the scope, and no
    read of it in the loop may see another value (it may run before `stmt` in a step)."""
    scope = index.scope_of(stmt)
    return len(scope.bindings.get(name, ())) == 1 and not read_before(index, loop, name, stmt)


def read_before(index: ModuleIndex, loop: ast.AST, name: str, stmt: ast.stmt) -> bool:
    """`name` may be read somewhere in `loop` before `stmt` binds it (the flow graph)."""
    return flow_graphs(index).read_before(loop, name, stmt)


def bound_on_every_path(index: ModuleIndex, name: str, end: ast.stmt) -> bool:
    """`name` is certainly bound when `end` runs: every path to `end` in its scope binds it
    (a parameter, an assignment, an import, a `for`/`with` target ...) and no `del` or
    unbound path reaches it: a binding inside a loop or branch that `end` is not in may not
    have run (zero steps, the other branch). A name of another scope: False."""
    return flow_graphs(index).bound_at(name, end)
