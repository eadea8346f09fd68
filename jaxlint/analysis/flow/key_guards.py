"""Key consumptions of a helper that run only for some literal values of another parameter.

`def load_split(batch, split, hps, shuffle_rng): ... if split == 'train': ds.shuffle(seed=
seed_of(shuffle_rng))` reads its key only when `split` is 'train'. A caller that passes one
key to `load_split(b, 'train', hps, rng)` and `load_split(b, 'val', hps, rng)` consumes it
once: the 'val' call never reaches the read. `KeyFlow` summarises, per consumed parameter,
the guard under which every consumption of it in the body sits (`LiteralGuard`: another
parameter compared with literals, `==`, `!=` in its `else`, `in (...)`), and a call that
passes a literal outside the guard's values (or leaves the parameter at a literal default
outside them) consumes nothing through that parameter.

Only guards that are decided by the call alone count: the tested name is a parameter of the
helper that its body never rebinds, the compared values are literals, and the consumption sits
in the branch the test selects (nested functions of the helper included: a closure sees the
same parameter). Anything else (no guard, a guard on a computed value, two guards on
different parameters) leaves the consumption unconditional, as before.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from jaxlint.analysis import syntax


@dataclass(frozen=True)
class LiteralGuard:
    """Every consumption of a key parameter runs only when parameter `param` equals one of
    `values` (literal constants)."""

    param: str
    values: frozenset[object]


def _literals(node: ast.AST) -> frozenset[object] | None:
    if isinstance(node, ast.Constant):
        return frozenset({node.value})
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and all(
        isinstance(e, ast.Constant) for e in node.elts
    ):
        return frozenset(e.value for e in node.elts)  # type: ignore[attr-defined]
    return None


def _branch_tests(node: ast.AST, fn: ast.AST) -> Iterator[tuple[ast.expr, bool]]:
    """The tests of the `if` statements of `fn` that `node` sits under, innermost first, each
    split into the tests that hold on the branch one at a time (every conjunct of an `and` in
    its body), with whether `node` is in the body (else in the `else`)."""
    child, cur = node, syntax.parent(node)
    while cur is not None and cur is not fn:
        if isinstance(cur, ast.If) and child is not cur.test:
            yield from _conjuncts(cur.test, child in cur.body)
        child, cur = cur, syntax.parent(cur)


def _conjuncts(test: ast.expr, in_body: bool) -> Iterator[tuple[ast.expr, bool]]:
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) and in_body:
        for value in test.values:  # every conjunct holds in the body
            yield from _conjuncts(value, True)
    else:
        yield test, in_body


def _test_guard(test: ast.AST, in_body: bool, params: set[str]) -> LiteralGuard | None:
    """The guard one test (not an `and`: `_conjuncts`) puts on the branch (`in_body`: the `if`
    body, else its `else`)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    left, op, right = test.left, test.ops[0], test.comparators[0]
    if isinstance(right, ast.Name) and isinstance(left, ast.Constant):
        left, right = right, left  # 'train' == split
    if not (isinstance(left, ast.Name) and left.id in params):
        return None
    values = _literals(right)
    if values is None:
        return None
    if (isinstance(op, ast.Eq) and in_body and isinstance(right, ast.Constant)) or (
        isinstance(op, ast.NotEq) and not in_body and isinstance(right, ast.Constant)
    ):
        return LiteralGuard(left.id, values)
    if isinstance(op, ast.In) and in_body:
        return LiteralGuard(left.id, values)
    return None


def literal_guard(node: ast.AST, fn: ast.AST, params: set[str]) -> LiteralGuard | None:
    """The innermost literal guard on a parameter of `fn` (in `params`, never rebound in
    `fn`) that `node` sits under, or None when it runs whatever the parameters are."""
    for test, in_body in _branch_tests(node, fn):
        found = _test_guard(test, in_body, params)
        if found is not None and not syntax.name_stores(fn, found.param):
            return found
    return None


def joined(guards: list[LiteralGuard | None]) -> LiteralGuard | None:
    """One guard for all consumptions of a parameter: their values' union when every one is
    guarded by the same parameter, else None (some consumption is unconditional)."""
    if not guards or any(g is None for g in guards):
        return None
    params = {g.param for g in guards}  # type: ignore[union-attr]
    if len(params) != 1:
        return None
    return LiteralGuard(params.pop(), frozenset().union(*(g.values for g in guards)))  # type: ignore[union-attr]


def call_skips(guard: LiteralGuard, passed: dict[str, ast.AST], fn: ast.AST) -> bool:
    """The call passes `guard.param` a literal outside its values (or leaves it at a literal
    default outside them): the guarded consumptions never run."""
    arg = passed.get(guard.param)
    if arg is None:
        arg = syntax.param_defaults(fn).get(guard.param)
    if not isinstance(arg, ast.Constant):
        return False
    return arg.value not in guard.values


# A numeric range: (low, low included, high, high included); a guard is a union of ranges
Range = tuple[float, bool, float, bool]
_INF = float("inf")
_ORDER = {
    ast.Lt: lambda c: (-_INF, False, c, False),
    ast.LtE: lambda c: (-_INF, False, c, True),
    ast.Gt: lambda c: (c, False, _INF, False),
    ast.GtE: lambda c: (c, True, _INF, False),
}
_NEGATED = {ast.Lt: ast.GtE, ast.LtE: ast.Gt, ast.Gt: ast.LtE, ast.GtE: ast.Lt}
_FLIPPED = {ast.Lt: ast.Gt, ast.LtE: ast.GtE, ast.Gt: ast.Lt, ast.GtE: ast.LtE}


def _number(node: ast.AST) -> float | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return None if isinstance(node.value, bool) else float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _number(node.operand)
        return None if inner is None else -inner
    return None


def _ranges(test: ast.AST, in_body: bool, params: set[str]) -> tuple[str, list[Range]] | None:
    """The numeric ranges one test (not an `and`: `_conjuncts`) allows a parameter on the
    branch (`branch <= 1` in its body: up to 1; `branch == 2`: 2; `mode in (0, 1)`: 0 or 1;
    `branch < 2` in its `else`: from 2)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    left, op, right = test.left, type(test.ops[0]), test.comparators[0]
    if isinstance(right, ast.Name) and not isinstance(left, ast.Name):
        left, right, op = right, left, _FLIPPED.get(op, op)  # 1 >= branch
    if not (isinstance(left, ast.Name) and left.id in params):
        return None
    if op in _ORDER and (c := _number(right)) is not None:
        return left.id, [_ORDER[op if in_body else _NEGATED[op]](c)]
    if (op is ast.Eq and in_body) or (op is ast.NotEq and not in_body):
        c = _number(right)
        return None if c is None else (left.id, [(c, True, c, True)])
    if op is ast.In and in_body and isinstance(right, (ast.Tuple, ast.List, ast.Set)):
        points = [_number(e) for e in right.elts]
        if all(p is not None for p in points):
            return left.id, [(p, True, p, True) for p in points]  # type: ignore[misc]
    return None


def _overlap(a: Range, b: Range) -> bool:
    (alo, alo_in, ahi, ahi_in), (blo, blo_in, bhi, bhi_in) = a, b
    if ahi < blo or bhi < alo:
        return False
    if ahi == blo and not (ahi_in and blo_in):
        return False
    return not (bhi == alo and not (bhi_in and alo_in))


def _range_guards(node: ast.AST, fn: ast.AST, params: set[str]) -> dict[str, list[Range]]:
    """Every numeric range guard on a parameter of `fn` (never rebound in `fn`) that `node`
    sits under, innermost first per parameter."""
    out: dict[str, list[Range]] = {}
    for test, in_body in _branch_tests(node, fn):
        found = _ranges(test, in_body, params)
        if found is not None and not syntax.name_stores(fn, found[0]):
            out.setdefault(found[0], found[1])
    return out


def exclusive_ranges(first: ast.AST, second: ast.AST, fn: ast.AST) -> bool:
    """Some parameter is guarded for both nodes by numeric ranges with nothing in common
    (`if branch <= 1: privatize_grad(g, key)` and later `if branch == 2: privatize_grad(p,
    key)` with `branch` static: v32 DP2 trainers, JAX201 x4)."""
    params = set(syntax.all_params(fn))
    a, b = _range_guards(first, fn, params), _range_guards(second, fn, params)
    return any(not any(_overlap(x, y) for x in a[p] for y in b[p]) for p in a.keys() & b.keys())


def exclusive_guards(first: ast.AST, second: ast.AST, fn: ast.AST | None) -> bool:
    """The two nodes sit under literal guards of `fn` on the same parameter, never rebound in
    `fn`, with no value in common (`if mode == "dropkey": bernoulli(key, ...)` and later `if
    mode == "post_softmax": dropout(x, key)`), or under numeric ranges of one parameter with
    nothing in common (`exclusive_ranges`): no call of `fn` runs both, so one key serves the
    one that runs (v24 rows, tuning material: megalodon-jax layers/attention.py:175/200,
    JAX201)."""
    if fn is None or not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return False
    params = set(syntax.all_params(fn))
    a, b = literal_guard(first, fn, params), literal_guard(second, fn, params)
    if a is not None and b is not None and a.param == b.param and not a.values & b.values:
        return True
    return exclusive_ranges(first, second, fn)
