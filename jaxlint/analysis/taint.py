"""Old home of the taint analysis, kept as a re-export while rule modules still import from it.

The analysis lives in `analysis/flow/taint.py` (with `flow/taint_helpers.py`,
`flow/taint_queries.py`, `flow/levels.py`) and its name tables in `analysis/jax_api.py`.
`rules/tracing.py` imports `NUMPY_DISPATCHING` from here; once the rule modules import from
`jaxlint.analysis.jax_api` this module goes.
"""

from __future__ import annotations

from jaxlint.analysis.flow.levels import Level
from jaxlint.analysis.flow.taint import TaintAnalysis
from jaxlint.analysis.jax_api import NUMPY_DISPATCHING

__all__ = ["NUMPY_DISPATCHING", "Level", "TaintAnalysis"]
