"""Helpers shared by the PRNG rules' messages."""

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
