"""The part of a condition whose truth value Python demands, for JAX110 and JAX111.

Both rules ask the same question of an `if`/`while`/`assert` test (which operand of an
`and`/`or`/`not` is a traced array), so it is answered once here.
"""

from __future__ import annotations

import ast

from jaxlint.rules.base import Context


def truth_culprit(test: ast.AST, ctx: Context) -> ast.AST | None:
    """The part of a condition whose truth value is demanded and is a traced array."""
    if isinstance(test, ast.BoolOp):
        for v in test.values:
            c = truth_culprit(v, ctx)
            if c is not None:
                return c
        return None
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return truth_culprit(test.operand, ctx)
    return test if ctx.taint.is_array(test) else None
