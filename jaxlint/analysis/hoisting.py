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

from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.loops import FEW_STEPS, PerStep
from jaxlint.analysis.syntax import ancestors, parent, walk_scope

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


STATEMENT_BLOCKS = ("body", "orelse", "finalbody")


def bound_on_every_path(index: ModuleIndex, name: str, end: ast.stmt) -> bool:
    """`name` is certainly bound when `end` runs: a parameter of the function, or assigned by
    a statement (possibly inside a `with` block) that comes before `end` in a block holding
    `end` or one of its ancestors. A binding inside a loop or branch that `end` is not in
    may not have run (zero steps, the other branch), and `del name` anywhere voids it."""
    scope = index.scope_of(end)
    owner = index.enclosing_function(end) or index.tree
    if any(
        isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Del)
        for n in walk_scope(owner)
    ):
        return False
    chain = [end, *ancestors(end)]
    for b in scope.bindings.get(name, ()):
        if b.kind == "param":
            return True
        stmt = b.node
        if not isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)) or (
            isinstance(stmt, ast.AnnAssign) and stmt.value is None
        ):
            continue
        while isinstance(parent(stmt), (ast.With, ast.AsyncWith)):
            stmt = parent(stmt)  # type: ignore[assignment]
        if _runs_before(stmt, chain):
            return True
    return False


def _runs_before(stmt: ast.AST, chain: list[ast.AST]) -> bool:
    """`stmt` is an earlier statement of a block that holds one of `chain` (`end` and its
    ancestors): it has run whenever that one runs."""
    holder = parent(stmt)
    for attr in STATEMENT_BLOCKS:
        block = getattr(holder, attr, None)
        if not isinstance(block, list) or not any(s is stmt for s in block):
            continue
        at = next(i for i, s in enumerate(block) if s is stmt)
        return any(s is c for s in block[at + 1 :] for c in chain)
    return False
