"""How the PRNG rules name a call in their messages: `normal` for `jax.random.normal(...)`,
`init` for a helper `init(...)`. Five rules cite the call that consumed a key (the first and
the second use, the consumer of a fixed seed), so they share one spelling.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.imports import dotted
from jaxlint.rules.base import Context


def callee_name(ctx: Context, call: ast.Call) -> str:
    """`normal` for `jax.random.normal(...)`, `init` for a helper `init(...)`."""
    q = ctx.qualname(call.func)
    if q:
        return q.replace("jax.random.", "")
    return dotted(call.func) or ctx.text(call.func)
