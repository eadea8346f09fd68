"""Call-site helpers shared by the deprecation rules' fixes (JAX802, JAX803, JAX807, JAX810).

A reference to an old name is rewritten differently when it is called directly or given to
`functools.partial`; these two lookups find that call once for every rule that needs it.
"""

from __future__ import annotations

import ast

from jaxlint.analysis import syntax
from jaxlint.analysis.jax_api import PARTIAL
from jaxlint.rules.base import Context


def call_of(ref: ast.AST) -> ast.Call | None:
    """The call `ref(...)` when `ref` is its callee."""
    parent = syntax.parent(ref)
    return parent if isinstance(parent, ast.Call) and parent.func is ref else None


def partial_of(ref: ast.AST, ctx: Context) -> ast.Call | None:
    """The call `partial(ref, ...)` when `ref` is its first argument."""
    parent = syntax.parent(ref)
    if (
        isinstance(parent, ast.Call)
        and parent.args
        and parent.args[0] is ref
        and ctx.qualname(parent.func) in PARTIAL
    ):
        return parent
    return None
