"""Whether 64-bit mode may be on where a module runs, for the dtype rules.

All three JAX7xx rules stay silent when x64 may be enabled (analysis/x64.py: the
module, its project, or `x64 = true`); the answer is a fact of the module
(`ModuleFacts.x64_may_be_on`). `DTYPE_CALLS` (`np.dtype(...)`) is read by two of them.
"""

from __future__ import annotations

from jaxlint.rules.base import Context

DTYPE_CALLS = {"numpy.dtype", "jax.numpy.dtype"}


def x64_evidence(ctx: Context) -> bool:
    """64-bit mode may be on where this module runs: the `x64 = true` option, or the
    module's facts say so (the module or its project turns it on)."""
    return bool(ctx.options.get("x64")) or ctx.facts.x64_may_be_on(ctx.path)
