"""Boolean masks built elementwise from one array, for JAX121 and JAX130.

A comparison with a number literal or an elementwise predicate (`jnp.isnan(x)`, ...) gives a mask
with the shape of its array: JAX121 uses that array's `.size` as a bound and JAX130 checks that a
mask fits the array it indexes, so both read the same two facts from here.
"""

from __future__ import annotations

import ast

ELEMENTWISE_PREDICATES = {"isnan", "isinf", "isfinite", "logical_not", "abs", "signbit"}


def _scalar_literal(node: ast.AST) -> bool:
    if isinstance(node, ast.UnaryOp):
        node = node.operand
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float))
