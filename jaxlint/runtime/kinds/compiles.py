"""Verifier kind `compiles`: count backend compiles per execution of the flagged line.

The code runs as the program runs it (the enclosing host function called as plain Python, or the
module's top-level statements), with JAX's monitoring events counted and each compile attributed
to the lines of the user's file on the Python stack at that moment, and the flagged line's
executions counted with a line tracer. A function with no loop around the flagged line is called
`CALLS` times. Confirmed when the line ran at least twice and compiled on (almost) every run:
JAX401's "one compile per iteration", JAX403/JAX404's "a new compile per value / shape". The
reason for each miss comes from `jax_explain_cache_misses`.
"""

from __future__ import annotations

import ast
import logging
from typing import Any

from jaxlint.runtime.kit import (
    Outcome,
    confirmed,
    could_not_run,
    not_reproduced,
    short_message,
    stopped,
)
from jaxlint.runtime.side import Probe, Side

CALLS = 3


def _in_loop(side: Side, lines: list[int]) -> bool:
    tree = side.tree
    if tree is None:
        return False
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.While, ast.AsyncFor, ast.comprehension)):
            body = getattr(node, "body", None)
            if body:
                first, last = body[0].lineno, max(getattr(b, "end_lineno", b.lineno) for b in body)
                if any(first <= line <= last for line in lines):
                    return True
    return False


def measure(side: Side) -> dict[str, Any]:
    """Run the code around the flagged line; count executions and compiles."""
    import jax

    from jaxlint.runtime.toolbox.recompile import _clean_miss, _Records

    if side.mode == "module":
        return _measure_module(side)
    handler = _Records()
    loggers = [logging.getLogger(n) for n in ("jax", "jax._src.interpreters.partial_eval")]
    previous = bool(jax.config.jax_explain_cache_misses)
    jax.config.update("jax_explain_cache_misses", True)
    for logger in loggers:
        logger.addHandler(handler)
    errors: list[str] = []
    failures: list[BaseException] = []
    calls = 1
    try:
        entry = side.entry()
        calls = 1 if _in_loop(side, side.lines) else CALLS
        with Probe(side.filename, lines=side.lines, trace_lines=True) as probe:
            for _ in range(calls):
                try:
                    entry.call() if entry.mode in ("call", "attr") else entry.run()
                except Exception as exc:
                    errors.append(f"{type(exc).__name__}: {short_message(exc)}")
                    failures.append(exc)
                    break
    finally:
        for logger in loggers:
            logger.removeHandler(handler)
        jax.config.update("jax_explain_cache_misses", previous)
    return _counts(side, probe, calls, _clean_miss(handler.take()), errors, failures)


def _measure_module(side: Side) -> dict[str, Any]:
    """Module-level code: the counts of the script's one shared run (`script_run`, the same run
    the `bench` kind times)."""
    from jaxlint.runtime.script_run import script_run

    run = script_run(side)
    errors = [
        f"line {r['at_line']}: {type(r['exc']).__name__}: {short_message(r['exc'])}"
        for r in run.errors
    ]
    return _counts(side, run.probe, 1, run.miss_reasons, errors, [])


def _counts(
    side: Side,
    probe: Probe,
    calls: int,
    reasons: str | None,
    errors: list[str],
    failures: list[BaseException],
) -> dict[str, Any]:
    executions = probe.hits_at(side.lines)
    at_line = probe.compiles_at(side.lines)
    if side.loop_lines:  # `f = jax.jit(body)` compiles where `f(x)` runs, in the same loop
        at_line = max(at_line, probe.compiles_at(side.loop_lines))
    first = _first_run_compiles(probe, side.lines)
    lines = list(dict.fromkeys((reasons or "").splitlines()))
    return {
        "calls": calls,
        "executions": executions,
        "compiles": at_line,
        "compiles_first_run": first,
        "compiles_total": len(probe.compiles),
        "traces_total": len(probe.traces),
        "compiles_per_execution": round(at_line / executions, 3) if executions else None,
        "miss_reason": lines[:6] or None,
        "errors": errors,
        "_failure": failures[0] if failures else None,
    }


def _first_run_compiles(probe: Probe, lines: list[int]) -> int:
    """Compiles attributed to the flagged lines before their second execution."""
    wanted = set(lines)
    seen_line = 0
    count = 0
    for kind, value in probe.timeline:
        if kind == "line" and value in wanted:
            seen_line += 1
            if seen_line > 1 and count:
                break
        elif kind == "compile" and wanted & set(value):
            count += 1
    return count


def check(side: Side) -> Outcome:
    data = measure(side)
    failure = data.pop("_failure", None)
    executions, compiles = data["executions"], data["compiles"]
    errors = data["errors"]
    confirmable = (
        executions >= 2
        and compiles >= 2
        # a rule about one compile inside a timed region (`verify.compile_time`), not repeats
        or bool(side.verify.get("compile_time") and data["compiles_first_run"])
    )
    if failure is not None and not confirmable:
        outcome = stopped(
            side, failure, f"line {side.line} ran {executions} time(s), then the code"
        )
        outcome.evidence.update({k: v for k, v in data.items() if k not in outcome.evidence})
        return outcome
    if executions == 0:
        why = f": {errors[0]}" if errors else " with these inputs"
        return could_not_run(f"line {side.line} never ran{why}", **data)
    if side.verify.get("compile_time"):
        if data["compiles_first_run"]:
            return confirmed(
                f"the first run of line {side.line} compiled {data['compiles_first_run']}x inside the "
                "timed region",
                **data,
            )
        return not_reproduced(f"line {side.line} did not compile when it first ran", **data)
    if executions >= 2 and compiles >= 2:
        return confirmed(
            f"line {side.line} ran {executions} times and compiled {compiles} times "
            f"({data['compiles_per_execution']} per run)",
            **data,
        )
    if errors:
        return could_not_run(
            f"line {side.line} ran {executions} time(s), then the code failed: {errors[0]}", **data
        )
    if executions < 2:
        if compiles:
            return not_reproduced(
                f"line {side.line} ran once (compiled {compiles}x): give inputs that make the loop "
                "run more than once",
                **data,
            )
        return not_reproduced(f"line {side.line} ran once and did not compile", **data)
    return not_reproduced(
        f"line {side.line} ran {executions} times but compiled only {compiles} time(s): the cache was hit",
        **data,
    )
