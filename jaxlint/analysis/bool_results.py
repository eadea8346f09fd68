"""Python booleans by their form: an expression, a function's results, a module's such
functions (for the project index).

A per-step value with two possible values is not a recompile storm (`analysis/loops.py`),
and a function whose every result is a comparison or a bool literal gives one of two values
whatever it is given. Its own module so that `kinds.py` (value kinds of parameters) stays
about parameters.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.syntax import own_returns

__all__ = ["bool_functions", "bool_valued", "returns_bool"]


def bool_valued(expr: ast.AST | None) -> bool:
    """`expr` is a Python bool by its form: a comparison, `not`, `and`/`or` of those,
    True/False, `bool(...)`, or a conditional between them (two values at most)."""
    if isinstance(expr, ast.Constant):
        return isinstance(expr.value, bool)
    if isinstance(expr, ast.Compare):
        return True
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
        return True
    if isinstance(expr, ast.BoolOp):
        return all(bool_valued(v) for v in expr.values)
    if isinstance(expr, ast.IfExp):
        return bool_valued(expr.body) and bool_valued(expr.orelse)
    if isinstance(expr, ast.Call):
        return isinstance(expr.func, ast.Name) and expr.func.id == "bool" and len(expr.args) == 1
    return False


def returns_bool(fn: ast.AST) -> bool:
    """Every `return` of `fn` gives a Python bool by its form (`bool_valued`: `return step >=
    start`, `return False`): at most two results, whatever it is given. (A comparison of
    arrays is an array, but a function traced by jit is not called per step from Python.)"""
    values = [r.value for r in own_returns(fn)]
    return bool(values) and all(bool_valued(v) for v in values)


def bool_functions(index: ModuleIndex) -> list[str]:
    """The undecorated top-level functions of a module that `returns_bool` (for the project
    index: a caller in another module knows their result takes two values)."""
    return sorted(
        stmt.name
        for stmt in index.tree.body
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
        and not stmt.decorator_list
        and returns_bool(stmt)
    )
