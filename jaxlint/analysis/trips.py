"""How many steps a loop takes, when the source says: a literal sequence, a literal
`range(...)`, or `enumerate`/`zip`/... over those (and, given an `int_value`, a range over a
module constant). Pure syntax, so that the flow graph (flow/cfg.py) can ask it without the
loop analyses, which import the transforms (loops.py and the key flow use them too)."""

from __future__ import annotations

import ast
from collections.abc import Callable

from jaxlint.analysis.syntax import COMPREHENSIONS, ancestors

__all__ = [
    "SEQUENCE_WRAPPERS",
    "IntValue",
    "guarded_int",
    "iterable_of",
    "literal_length",
    "runs_at_least_once",
    "trip_count",
    "unwrapped",
]


# builtins that walk their first argument in order (a loop over `enumerate(xs)` walks `xs`)
SEQUENCE_WRAPPERS = ("enumerate", "reversed", "sorted", "list", "tuple")


def iterable_of(loop: ast.AST) -> ast.expr | None:
    """The iterable of a `for` loop, or of a comprehension's first `for`."""
    if isinstance(loop, (ast.For, ast.AsyncFor)):
        return loop.iter
    if isinstance(loop, COMPREHENSIONS):
        return loop.generators[0].iter
    return None


def unwrapped(it: ast.AST | None) -> ast.AST | None:
    """The sequence under `enumerate(...)`, `reversed(...)`, `sorted(...)`, `list(...)`,
    `tuple(...)` (its first argument: `enumerate(xs, 1)` walks `xs`)."""
    while (
        isinstance(it, ast.Call)
        and isinstance(it.func, ast.Name)
        and it.func.id in SEQUENCE_WRAPPERS
        and it.args
        and not isinstance(it.args[0], ast.Starred)
    ):
        it = it.args[0]
    return it


IntValue = Callable[[ast.AST], "int | None"]


def trip_count(loop: ast.AST, int_value: IntValue | None = None) -> int | None:
    """Number of steps of a loop over a literal sequence or a literal `range(...)`; with
    `int_value` (`ModuleConstants.int_value`), also `range(EPOCHS)` where the module assigns
    `EPOCHS = 400` once."""
    it = iterable_of(loop)
    if it is None:
        return None
    return literal_length(it, int_value)


def runs_at_least_once(loop: ast.AST, int_value: IntValue | None = None) -> bool:
    """A `for` loop whose step count is proven positive (`range(400)`, `range(EPOCHS)`, a
    literal list): the path that skips its body cannot run. Not through `zip`, whose
    written-out length only bounds the count from above."""
    it = unwrapped(iterable_of(loop))
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "zip":
        return False
    count = trip_count(loop, int_value)
    return count is not None and count > 0


def literal_length(it: ast.expr, int_value: IntValue | None = None) -> int | None:
    """Length of a literal sequence, a literal `range(...)`, or `enumerate`/`reversed`/`zip`/
    `sorted` over those (`for i, (kT, p) in enumerate(((1.0, 0.4), (1.0, 0.8)))`)."""
    if (
        isinstance(it, ast.Call)
        and isinstance(it.func, ast.Name)
        and it.func.id in ("enumerate", "reversed", "sorted", "zip", "list", "tuple")
        and it.args
        and not any(isinstance(a, ast.Starred) for a in it.args)
    ):
        if it.func.id == "zip":  # stops at the shortest: one written-out length bounds it
            known = [n for n in (literal_length(a, int_value) for a in it.args) if n is not None]
            return min(known) if known else None
        return literal_length(it.args[0], int_value)
    if isinstance(it, (ast.List, ast.Tuple, ast.Set)):
        if any(isinstance(e, ast.Starred) for e in it.elts):
            return None
        return len(it.elts)
    sliced = sliced_literal(it)
    if sliced is not None:
        return sliced
    if (
        isinstance(it, ast.Call)
        and isinstance(it.func, ast.Name)
        and it.func.id == "range"
        and not it.keywords
        and 1 <= len(it.args) <= 3
    ):
        values = []
        for a in it.args:
            v = int_value(a) if int_value is not None else _literal_int(a)
            if not isinstance(v, int) or isinstance(v, bool):
                return None
            values.append(v)
        if len(values) == 3 and values[2] == 0:
            return None
        return len(range(*values))
    return None


def sliced_literal(node: ast.AST) -> int | None:
    """Length of a literal list or tuple cut by a slice of int literals (`['x', 'endpoint'][:1]`,
    a test that keeps one case of a written-out list: v20 jax-power tests/test_mesh2.py:187,
    JAX403 x3, tuning material); None for anything else."""
    if not (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, (ast.List, ast.Tuple))
        and isinstance(node.slice, ast.Slice)
        and not any(isinstance(e, ast.Starred) for e in node.value.elts)
    ):
        return None
    bounds = []
    for b in (node.slice.lower, node.slice.upper, node.slice.step):
        v = None if b is None else _literal_int(b)
        if b is not None and v is None:
            return None
        bounds.append(v)
    if bounds[2] == 0:
        return None
    return len(range(len(node.value.elts))[slice(*bounds)])


def _literal_int(node: ast.AST) -> int | None:
    """The value of an int literal (`3`, `-2`), None for anything else (`-n`: a `UnaryOp`
    of a name, which `ast.literal_eval` refuses with a ValueError)."""
    if not isinstance(node, (ast.Constant, ast.UnaryOp)):
        return None
    try:
        value = ast.literal_eval(node)
    except ValueError:
        return None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def guarded_int(name: ast.Name) -> int | None:
    """The int a name holds where an enclosing `if name == 4:` (or `elif`, or one operand of
    an `and`) says so, when nothing in that arm binds the name again: `elif n_facets == 4:`
    around `tuple(... for facet in range(n_facets))` takes 4 steps (v41 jinns
    `loss/_BoundaryCondition.py:144-186`, JAX407 x4 on `jnp.array([1.0, 0.0])`, read false)."""
    child: ast.AST = name
    for anc in ancestors(name):
        if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            return None  # run later: the name may hold another value by then
        if isinstance(anc, ast.If) and any(child is s for s in anc.body):
            value = _equal_to(anc.test, name.id)
            if value is not None and not _binds(anc.body, name.id):
                return value
        child = anc
    return None


def _equal_to(test: ast.expr, name: str) -> int | None:
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        for v in test.values:
            found = _equal_to(v, name)
            if found is not None:
                return found
        return None
    if not (
        isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)
    ):
        return None
    left, right = test.left, test.comparators[0]
    for a, b in ((left, right), (right, left)):
        if isinstance(a, ast.Name) and a.id == name:
            return _literal_int(b)
    return None


def _binds(body: list[ast.stmt], name: str) -> bool:
    """Something in `body` stores `name` (an assignment, a loop target, a `del`, a walrus)."""
    return any(
        isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
        for stmt in body
        for n in ast.walk(stmt)
    )
