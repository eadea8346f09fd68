"""Verifier kind `retrace-cmp`: host randomness is baked into the trace as a constant.

Call one jitted wrapper twice with the same inputs (same trace: outputs equal), then trace afresh
twice (new function objects after `jax.clear_caches()`: JAX's trace cache is keyed on the function
object, §0.4) and compare. Equal outputs within a trace but different outputs across fresh traces
means the random number was drawn once per trace on the host and frozen into the program.
"""

from __future__ import annotations

from typing import Any

from jaxlint.runtime.entry import block
from jaxlint.runtime.kit import CouldNotRun, Outcome, confirmed, not_reproduced, stopped
from jaxlint.runtime.side import Side
from jaxlint.runtime.toolbox.bench import outputs_match


def _preview(value: Any) -> Any:
    import jax
    import numpy as np

    leaves = jax.tree.leaves(value)
    if not leaves:
        return None
    try:
        arr = np.asarray(leaves[0], dtype=np.float64).ravel()
        return [round(float(v), 6) for v in arr[:3]]
    except Exception:
        return None


def check(side: Side) -> Outcome:
    import jax

    if side.mode not in ("jit", "attr"):
        raise CouldNotRun("needs a traced function to re-trace")
    entry = side.entry(shared=True)
    fn = entry.fn
    try:
        jitted = entry.jitted(fn=fn)
        first = block(jitted(*entry.args, **entry.kwargs))
        again = block(jitted(*entry.args, **entry.kwargs))
        jax.clear_caches()
        fresh_out = block(entry.jitted(fn=fn)(*entry.args, **entry.kwargs))
        jax.clear_caches()
        fresh_out2 = block(entry.jitted(fn=fn)(*entry.args, **entry.kwargs))
    except Exception as exc:
        return stopped(side, exc, entry.describe())
    same_trace, _ = outputs_match(first, again)
    fresh_equal, diff = outputs_match(first, fresh_out)
    fresh_equal2, diff2 = outputs_match(fresh_out, fresh_out2)
    evidence = {
        "ran": entry.describe(),
        "same_trace_equal": same_trace,
        "fresh_traces_equal": bool(fresh_equal and fresh_equal2),
        "max_abs_diff": max(d for d in (diff, diff2) if d is not None)
        if (diff is not None or diff2 is not None)
        else None,
        "outputs": [_preview(first), _preview(again), _preview(fresh_out), _preview(fresh_out2)],
    }
    if same_trace and not (fresh_equal and fresh_equal2):
        return confirmed(
            "repeated calls of one compiled function return the same 'random' values, but every "
            "fresh trace returns new ones: the host RNG ran once per trace and is a constant in the "
            "compiled program",
            **evidence,
        )
    if not same_trace:
        return not_reproduced(
            "outputs change between calls of one compiled function: randomness is traced",
            **evidence,
        )
    return not_reproduced(
        "fresh traces give the same outputs: no host randomness baked in", **evidence
    )
