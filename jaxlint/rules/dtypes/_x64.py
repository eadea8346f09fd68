"""Whether 64-bit mode may be on where a module runs, for the dtype rules.

All three JAX7xx rules stay silent when x64 may be enabled (analysis/x64.py: the
module, its project, or `x64 = true`); the answer is computed once per module and
kept with its facts. `DTYPE_CALLS` (`np.dtype(...)`) is read by two of them.
"""

from __future__ import annotations

import weakref

from jaxlint.analysis.x64 import module_enables_x64, project_enables_x64
from jaxlint.rules.base import Context

DTYPE_CALLS = {"numpy.dtype", "jax.numpy.dtype"}

_X64_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def x64_evidence(ctx: Context) -> bool:
    """64-bit mode may be on where this module runs (analysis/x64.py: the module, its project
    -- conftest, package `__init__`, CI/tox/pytest configuration -- or `x64 = true`)."""
    if ctx.options.get("x64"):
        return True
    cached = _X64_CACHE.get(ctx.facts)
    if cached is not None:
        return cached
    found = module_enables_x64(ctx.index) or project_enables_x64(ctx.path)
    _X64_CACHE[ctx.facts] = found
    return found
