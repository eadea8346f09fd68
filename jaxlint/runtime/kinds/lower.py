"""Verifier kind `lower`: what the flagged code turns into (jaxpr, HLO, cost, memory).

The entry is traced with a line tracer on (how many times the flagged Python line was traced),
then lowered and compiled: jaxpr equation count (with nested), compiled HLO op histogram, XLA cost
and memory analysis, and trace/lower/compile seconds (reusing `probe`'s normalisers). Confirmed
when the flagged line was traced `UNROLL_MIN`+ times and the jaxpr grew with it (an unrolled Python
loop: JAX405); for other rules when the fixed code lowers to fewer ops or less memory.
"""

from __future__ import annotations

import re
import sys
import time
from collections import Counter
from typing import Any

from jaxlint.runtime.kit import (
    CouldNotRun,
    Outcome,
    confirmed,
    could_not_run,
    describe_exception,
    not_reproduced,
    stack_lines,
)
from jaxlint.runtime.side import Probe, Side

UNROLL_MIN = 8
_OP_RE = re.compile(r"=\s*[^=]*?\s([a-z][a-z0-9\-_.]*)\(", re.M)


def hlo_ops(text: str) -> dict[str, int]:
    ops: Counter[str] = Counter()
    for line in text.splitlines():
        line = line.strip()
        if (
            not line
            or line.startswith(("HloModule", "ENTRY", "}", "%fused", "ROOT tuple"))
            or "=" not in line
        ):
            continue
        match = _OP_RE.search(line)
        if match:
            ops[match.group(1)] += 1
    return dict(ops.most_common())


def lower(side: Side) -> dict[str, Any]:
    from jaxlint.runtime.toolbox.probe import (
        _primitives,
        normalize_cost_analysis,
        normalize_memory_analysis,
    )

    if side.mode not in ("jit", "attr"):
        raise CouldNotRun("needs a traced function to lower")
    entry = side.entry(shared=True)
    jitted = entry.jitted()
    with Probe(side.filename, lines=side.lines, trace_lines=True) as probe:
        start = time.perf_counter()
        traced = jitted.trace(*entry.args, **entry.kwargs)
        trace_s = time.perf_counter() - start
    start = time.perf_counter()
    lowered = traced.lower()
    lower_s = time.perf_counter() - start
    eqns_total = len(_primitives(traced.jaxpr.jaxpr))
    compiled = None
    compile_s = None
    if eqns_total <= COMPILE_EQN_LIMIT:
        start = time.perf_counter()
        compiled = lowered.compile()
        compile_s = time.perf_counter() - start
    ops = hlo_ops(compiled.as_text() or "") if compiled is not None else {}
    cost = normalize_cost_analysis(_quiet(compiled.cost_analysis)) if compiled is not None else None
    memory = (
        normalize_memory_analysis(_quiet(compiled.memory_analysis))
        if compiled is not None
        else None
    )
    return {
        "ran": entry.describe(),
        "line_traced": probe.hits_at(side.lines),
        "jaxpr_eqns": len(traced.jaxpr.jaxpr.eqns),
        "jaxpr_eqns_total": len(_primitives(traced.jaxpr.jaxpr)),
        "hlo_ops_total": sum(ops.values()),
        "hlo_ops": dict(list(ops.items())[:8]),
        "flops": (cost or {}).get("flops"),
        "memory": {k: v for k, v in (memory or {}).items() if v},
        "trace_seconds": round(trace_s, 4),
        "lower_seconds": round(lower_s, 4),
        "compile_seconds": round(compile_s, 4) if compile_s is not None else None,
        "compile_skipped": compiled is None,
    }


def _quiet(method: Any) -> Any:
    try:
        return method()
    except Exception:
        return None


COMPILE_EQN_LIMIT = 2000  # above this the compile alone takes seconds: report the jaxpr only


def _capture_call(side: Side, callee: str) -> tuple[Any, tuple[Any, ...], dict[str, Any]]:
    """Run the entry with `callee` (a module-level jitted function) wrapped, and return it with
    the arguments of its first call from the flagged line."""
    if "." in callee or side.mode not in ("call", "jit", "attr"):
        raise CouldNotRun(f"cannot intercept `{callee}` here")
    mod = side.module().execute()
    try:
        target = mod.namespace.get(callee)
        if target is None or not callable(getattr(target, "lower", None)):
            raise CouldNotRun(f"`{callee}` is not a module-level jitted function")
        captured: list[tuple[Any, ...]] = []
        lines = set(side.lines)

        def spy(*args: Any, **kwargs: Any) -> Any:
            if not captured and lines & set(stack_lines(side.filename, sys._getframe(1))):
                captured.append((args, kwargs))
            return target(*args, **kwargs)

        mod.namespace[callee] = spy
        entry = side.entry(mod)
        try:
            entry.call() if entry.mode in ("call", "attr") else entry.run()
        except Exception as exc:
            if not captured:
                info = describe_exception(exc, side.filename)
                raise CouldNotRun(
                    f"{entry.describe()} failed: {info['exception']}: {info['message']}"
                ) from None
        if not captured:
            raise CouldNotRun(f"line {side.line} never called `{callee}`")
        return target, captured[0][0], captured[0][1]
    finally:
        mod.close()


def _donation(side: Side) -> Outcome:
    """JAX406: compile the call with and without donating the reassigned arguments."""
    import jax

    from jaxlint.runtime.toolbox.probe import normalize_memory_analysis, parse_input_output_alias

    hint = side.job.get("call") or {}
    donate = tuple(hint.get("donate") or ())
    if not hint.get("callee") or not donate:
        raise CouldNotRun(
            "no argument of the call is reassigned by its statement: nothing to donate"
        )
    target, args, kwargs = _capture_call(side, hint["callee"])
    info = getattr(target, "_jit_info", None)
    static = tuple(getattr(info, "static_argnums", ()) or ())
    already = set(getattr(info, "donate_argnums", ()) or ())
    if set(donate) <= already:
        return not_reproduced(
            f"`{hint['callee']}` already donates argument(s) {sorted(already)}",
            callee=hint["callee"],
            donate_argnums=sorted(already),
        )
    fn = getattr(target, "__wrapped__", None) or getattr(target, "_fun", None)
    if fn is None:
        raise CouldNotRun(f"cannot find the Python function under `{hint['callee']}`")
    plain = target.lower(*args, **kwargs).compile()
    donated = (
        jax.jit(fn, static_argnums=static, donate_argnums=donate).lower(*args, **kwargs).compile()
    )
    before = normalize_memory_analysis(_quiet(plain.memory_analysis)) or {}
    after = normalize_memory_analysis(_quiet(donated.memory_analysis)) or {}
    aliases = parse_input_output_alias(donated.as_text() or "")
    keep = ("argument_bytes", "output_bytes", "temp_bytes", "alias_bytes", "peak_memory_bytes")
    evidence = {
        "callee": hint["callee"],
        "donate_argnums": list(donate),
        "memory": {k: before.get(k) for k in keep},
        "memory_donated": {k: after.get(k) for k in keep},
        "aliased": [a["parameter"] for a in aliases],
    }
    peak_a, peak_b = before.get("peak_memory_bytes"), after.get("peak_memory_bytes")
    if aliases and after.get("alias_bytes"):
        saved = f"; peak {peak_a} B -> {peak_b} B" if peak_a and peak_b else ""
        return confirmed(
            f"donating argument(s) {list(donate)} of `{hint['callee']}` lets XLA write the result "
            f"into the input buffer ({after['alias_bytes']} B aliased{saved}); without donation "
            "the old and new values are both alive",
            **evidence,
        )
    return not_reproduced(
        "XLA could not reuse the donated buffers (shapes or dtypes differ)", **evidence
    )


def check(side: Side) -> Outcome:
    if side.verify.get("donation"):
        return _donation(side)
    try:
        data = lower(side)
    except CouldNotRun:
        raise
    except Exception as exc:
        info = describe_exception(exc, side.filename)
        return could_not_run(f"could not lower: {info['exception']}: {info['message']}", **info)
    traced, eqns = data["line_traced"], data["jaxpr_eqns_total"]
    if side.job.get("fix") and not side.fixed:
        try:
            fixed = lower(Side(side.job, fixed=True))
            data["fixed"] = {
                k: fixed[k]
                for k in ("jaxpr_eqns_total", "hlo_ops_total", "memory", "compile_seconds")
            }
            mem_a = (data["memory"] or {}).get("peak_memory_bytes") or 0
            mem_b = (fixed["memory"] or {}).get("peak_memory_bytes") or 0
            if fixed["hlo_ops_total"] < data["hlo_ops_total"] or (
                mem_b and mem_a and mem_b < mem_a
            ):
                return confirmed(
                    f"the fixed code lowers to {fixed['hlo_ops_total']} HLO ops (was {data['hlo_ops_total']}), "
                    f"peak memory {mem_b} B (was {mem_a} B)",
                    **data,
                )
        except Exception as exc:  # the comparison is optional
            data["fixed"] = {"error": f"{type(exc).__name__}: {exc}"}
    if traced >= UNROLL_MIN and eqns >= traced:
        compile_note = (
            f"compile {data['compile_seconds']} s"
            if data["compile_seconds"] is not None
            else f"compile skipped above {COMPILE_EQN_LIMIT} equations"
        )
        return confirmed(
            f"line {side.line} was traced {traced} times: the Python loop is unrolled into "
            f"{eqns} jaxpr equations ({compile_note})",
            **data,
        )
    return not_reproduced(
        f"line {side.line} was traced {traced} time(s); the program has {eqns} equations",
        **data,
    )
