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


# Fresh traces before "no host randomness": a host coin flip (two outcomes) agrees with the
# first trace in all of them with probability 2**-FRESH_TRACES; 11 keeps that under 1e-3
# (3 traces, as before, agreed 25% of the time). Stops at the first trace that differs.
FRESH_TRACES = 11


def check(side: Side) -> Outcome:
    import jax

    if side.mode not in ("jit", "attr"):
        raise CouldNotRun("needs a traced function to re-trace")
    entry = side.entry(shared=True)
    fn = entry.fn
    fresh_outs: list[Any] = []
    fresh_equal = True
    diff = None
    try:
        jitted = entry.jitted(fn=fn)
        first = block(jitted(*entry.args, **entry.kwargs))
        again = block(jitted(*entry.args, **entry.kwargs))
        for _ in range(FRESH_TRACES):
            jax.clear_caches()
            out = block(entry.jitted(fn=fn)(*entry.args, **entry.kwargs))
            fresh_outs.append(out)
            equal, d = outputs_match(first, out)
            if d is not None:
                diff = d if diff is None else max(diff, d)
            if not equal:
                fresh_equal = False
                break
    except Exception as exc:
        return stopped(side, exc, entry.describe())
    same_trace, _ = outputs_match(first, again)
    evidence = {
        "ran": entry.describe(),
        "same_trace_equal": same_trace,
        "fresh_traces_equal": fresh_equal,
        "fresh_traces": len(fresh_outs),
        "max_abs_diff": diff,
        "outputs": [_preview(first), _preview(again), *(_preview(o) for o in fresh_outs[-2:])],
    }
    if same_trace and not fresh_equal:
        return confirmed(
            "repeated calls of one compiled function return the same 'random' values, but a "
            f"fresh trace (number {len(fresh_outs)}) returned new ones: the host RNG ran once per "
            "trace and is a constant in the compiled program",
            **evidence,
        )
    if not same_trace:
        return not_reproduced(
            "outputs change between calls of one compiled function: randomness is traced",
            **evidence,
        )
    return not_reproduced(
        f"{len(fresh_outs) + 1} traces gave the same outputs: no host randomness baked in (a "
        f"host coin flip would agree this often with probability {2.0 ** -len(fresh_outs):.0e})",
        **evidence,
    )
