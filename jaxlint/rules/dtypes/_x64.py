"""Whether 64-bit mode may be on where a module runs, for the dtype rules.

All three JAX7xx rules stay silent when x64 may be enabled (analysis/x64.py: the
module, its project, or `x64 = true`); the answer is a fact of the module
(`ModuleFacts.x64_may_be_on`). `DTYPE_CALLS` (`np.dtype(...)`) is read by two of them.
"""

from __future__ import annotations

import ast

from jaxlint.rules.base import Context

DTYPE_CALLS = {"numpy.dtype", "jax.numpy.dtype"}


def x64_evidence(ctx: Context) -> bool:
    """64-bit mode may be on where this module runs: the `x64 = true` option, or the
    module's facts say so (the module or its project turns it on)."""
    return bool(ctx.options.get("x64")) or ctx.facts.x64_may_be_on(ctx.path)


def x64_evidence_at(ctx: Context, node: ast.AST) -> bool:
    """`x64_evidence`, or `node` runs inside a function that a program of the project may
    call after turning 64-bit mode on in a function of its own (`main()` calling
    `setup_jax_environment()` before the code it imports: `ModuleFacts.x64_on_when_called`).
    Module-level code runs at import, before such a call."""
    if x64_evidence(ctx):
        return True
    return ctx.index.enclosing_function(node) is not None and ctx.facts.x64_on_when_called(ctx.path)
