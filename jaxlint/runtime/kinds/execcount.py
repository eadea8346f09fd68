"""Verifier kind `execcount`: how often the Python statement runs vs how often the function is called.

The entry is called `CALLS` times with the same inputs (jitted as the program jits it; a scan body
through the function that scans). A line tracer counts the flagged statement's executions and
stdout is captured. Inside traced code the Python body runs once per trace, not once per call:
a `print` shows a tracer once, an `append` or counter update happens once. Confirmed when the
statement ran fewer times than the function was called and no runtime effect (for example
`jax.debug.print` output) made up for it; printed tracers are shown as evidence.
"""

from __future__ import annotations

from jaxlint.runtime.kit import (
    Outcome,
    confirmed,
    could_not_run,
    describe_exception,
    not_reproduced,
    short_message,
    stopped,
)
from jaxlint.runtime.side import Probe, Side, capture_stdout

CALLS = 3


def check(side: Side) -> Outcome:
    if side.mode == "module":
        return could_not_run("module-level code runs once; there is no function to call repeatedly")
    entry = side.entry(shared=True)
    errors: list[str] = []
    failure: BaseException | None = None
    calls = 0
    with Probe(side.filename, lines=side.lines, trace_lines=True) as probe:
        with capture_stdout() as printed:
            for _ in range(CALLS):
                try:
                    entry.run()
                    calls += 1
                except Exception as exc:
                    info = describe_exception(exc, side.filename)
                    if info.get("at_line") in side.lines and "Tracer" in info["message"]:
                        return confirmed(
                            f"line {info['at_line']} fails at trace time: {info['exception']}: "
                            f"{info['message']} (the value is a tracer, not data)",
                            **info,
                        )
                    errors.append(f"{type(exc).__name__}: {short_message(exc)}")
                    failure = exc
                    break
    runs = probe.hits_at(side.lines)
    tracers = [line for line in printed if "Tracer" in line]
    evidence = {
        "ran": entry.describe(),
        "calls": calls,
        "body_runs": runs,
        "printed": printed[:6],
        "printed_lines": len(printed),
    }
    if failure is not None and not calls:
        outcome = stopped(side, failure, entry.describe())
        outcome.evidence.update(evidence)
        return outcome
    if runs == 0:
        return could_not_run(f"line {side.line} never ran", **evidence)
    runtime_effects = len(printed) - len(tracers)
    if tracers:
        evidence["printed_tracers"] = tracers[:3]
    if runs < calls and runtime_effects < calls:
        what = (
            "printed a tracer, not a value"
            if tracers
            else "its side effect happened at trace time only"
        )
        return confirmed(
            f"the statement ran {runs} time(s) for {calls} calls: {what}",
            **evidence,
        )
    if tracers:
        return confirmed(
            f"it printed a tracer ({tracers[0].strip()[:80]}), not a value", **evidence
        )
    return not_reproduced(
        f"the statement's effect happened on every call ({max(runs, runtime_effects)} for {calls} calls)",
        **evidence,
    )
