"""Functional updates whose result is lost, for JAX504 and JAX505.

Both rules recognise the same `x.at[i].<method>(v)` update and shorten the source they quote in
their messages the same way, so those two helpers live here once.
"""

from __future__ import annotations

import ast

from jaxlint.rules.base import short_code

AT_UPDATES = frozenset(
    {"set", "add", "subtract", "multiply", "mul", "divide", "div", "power", "min", "max", "apply"}
)


def _at_base(call: ast.AST) -> ast.AST | None:
    """`x` in `x.at[i].set(v)` (any `.at[...]` update method), else None."""
    func = call.func if isinstance(call, ast.Call) else None
    if (
        isinstance(func, ast.Attribute)
        and func.attr in AT_UPDATES
        and isinstance(func.value, ast.Subscript)
        and isinstance(func.value.value, ast.Attribute)
        and func.value.value.attr == "at"
    ):
        return func.value.value.value
    return None


def _short(text: str, limit: int = 60) -> str:
    return short_code(text, limit)
