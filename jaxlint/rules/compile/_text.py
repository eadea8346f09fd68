"""Source text shortened for messages, shared by the compile rules.

Several JAX4xx messages quote the call or argument they flag; one helper keeps the
quotes to one line of bounded length, the same in every rule.
"""

from __future__ import annotations

import ast

from jaxlint.rules.base import Context, short_code


def shorten(ctx: Context, node: ast.AST, limit: int = 40) -> str:
    return short_code(ctx.text(node), limit)
