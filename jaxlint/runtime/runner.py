"""Child half of `jaxlint verify`: the runner of the jobs `verify.plan` made, inside the sandbox.

`worker` is the sandbox entry: it runs every job (`run_job`) and streams each result to a
progress file. A job runs its verifier kinds (`kinds.*`, loaded by name from `KIND_MODULES`) on the
original source, combines their outcomes (`combine`), retries with another finding's fix applied
when that finding stopped the code first (`_unmask`), and, when the finding has a fix, runs the
deciding kinds on the fixed source too (`check_fix`).

The pieces every kind shares sit below this module, so no kind imports the runner:
- `entry.UserModule` / `entry.Entry`: a fresh execution of the file, and the callable a job
  reaches the flagged line through, with its example inputs materialized from a fixed seed;
- `side.Side` / `side.Probe`: one version of the source (original, fixed, unmasked) and the
  line-attributed instrumentation of a run (compiles, warnings, line hits, clock reads);
- `kit`: `Outcome` and the verdict helpers, `VerifyTimeout`, the exception helpers.

Everything runs under a per-job soft timeout (SIGALRM, a BaseException that user code's
`except Exception` cannot swallow); the parent's hard timeout covers what that cannot interrupt.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import signal
import sys
import time
import traceback
from collections.abc import Iterator, Sequence
from typing import Any

# the kit below the runner and the kinds, re-exported: `from jaxlint.runtime.runner
# import Side` keeps working for callers written before the split
from jaxlint.runtime.entry import Entry, UserModule
from jaxlint.runtime.kit import (
    CONFIRMED,
    COULD_NOT_RUN,
    NOT_REPRODUCED,
    CouldNotRun,
    Outcome,
    VerifyTimeout,
    compare_sides,
    confirmed,
    could_not_run,
    describe_exception,
    exception_lines,
    not_reproduced,
    short_message,
    stack_lines,
    stopped,
)
from jaxlint.runtime.side import Probe, Side, capture_stdout

KIND_MODULES = {
    "trace": "trace",
    "retrace-static": "retrace_static",
    "compiles": "compiles",
    "keycheck": "keycheck",
    "draws": "draws",
    "retrace-cmp": "retrace_cmp",
    "execcount": "execcount",
    "leaks": "leaks",
    "bench": "bench",
    "lower": "lower",
    "transfers": "transfers",
    "numeric": "numeric",
    "gradnan": "gradnan",
    "dtype": "dtype",
    "import": "import_",
}
SUPPLEMENTARY = {"retrace-static", "numeric"}
# Slow checks (seconds: JAX's leak checker walks the garbage collector's referrers) that only
# run when the kinds before them did not already confirm the finding.
EXPENSIVE = {"leaks"}
# Kinds whose fixed version is expected to compute the same results as the original.
RESULT_PRESERVING = {
    "trace",
    "retrace-static",
    "compiles",
    "execcount",
    "leaks",
    "lower",
    "transfers",
    "numeric",
    "dtype",
    "import",
}


def _load_kind(kind: str) -> Any:
    return importlib.import_module(f"jaxlint.runtime.kinds.{KIND_MODULES[kind]}")


@contextlib.contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    if not seconds or not hasattr(signal, "setitimer") or threading_main() is False:
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        raise VerifyTimeout(f"timed out after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, float(seconds))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def threading_main() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


# kinds that can decide without running the user's function (name lookups)
NO_ENTRY_KINDS = {"import"}


def run_kind(kind: str, side: Side) -> Outcome:
    if side.entry_spec is None and kind not in NO_ENTRY_KINDS and side.job.get("entry_error"):
        return could_not_run(side.job["entry_error"])
    try:
        module = _load_kind(kind)
        return module.check(side)
    except CouldNotRun as exc:
        return could_not_run(str(exc))
    except VerifyTimeout:
        raise
    except Exception as exc:  # a verifier bug or user code failing where we did not expect it
        return could_not_run(
            f"{kind} check failed: {type(exc).__name__}: {short_message(exc)}",
            internal=traceback.format_exc(limit=6)[-1500:],
        )


# evidence keys that describe where a run stopped (`kit.describe_exception`, `masked`)
RUN_STOPPED_KEYS = {"exception", "message", "mro", "at_line", "user_frames", "masked_by"}


def combine(kinds: Sequence[str], outcomes: dict[str, Outcome]) -> Outcome:
    """First kind decides unless another (non-supplementary) kind confirms."""
    deciding = [k for i, k in enumerate(kinds) if i == 0 or k not in SUPPLEMENTARY]
    confirmed_by = [k for k in deciding if outcomes[k].verdict == CONFIRMED]
    evidence: dict[str, Any] = {"checks": {k: outcomes[k].verdict for k in kinds}}
    # the confirming kind's evidence comes first; where another kind stopped elsewhere, its
    # line and exception are kept under its own name, so a confirmed finding never shows
    # another line's `at_line` as its own (ux-review-3 B4)
    order = confirmed_by[:1] + [k for k in kinds if k not in confirmed_by[:1]]
    for k in order:
        for key, value in outcomes[k].evidence.items():
            own = not confirmed_by or k == confirmed_by[0] or key not in RUN_STOPPED_KEYS
            if key in evidence and key != "checks" or not own:
                evidence[f"{k}.{key}"] = value
            else:
                evidence.setdefault(key, value)
    if confirmed_by:
        main = outcomes[confirmed_by[0]]
        return Outcome(CONFIRMED, main.reason, evidence)
    if all(outcomes[k].verdict == COULD_NOT_RUN for k in deciding):
        distinct = list(dict.fromkeys(outcomes[k].reason for k in deciding if outcomes[k].reason))
        if len(distinct) <= 1:
            return Outcome(COULD_NOT_RUN, distinct[0] if distinct else "", evidence)
        reasons = "; ".join(f"{k}: {outcomes[k].reason}" for k in deciding if outcomes[k].reason)
        return Outcome(COULD_NOT_RUN, reasons, evidence)
    stopped_early = [
        k
        for k in deciding
        if outcomes[k].verdict == COULD_NOT_RUN and outcomes[k].evidence.get("masked_by")
    ]
    if stopped_early:
        # one check stopped at another finding's line before it reached this one: another
        # kind's "not reproduced" is no verdict on code the deciding run never got to; stay
        # could-not-run (masked), so that finding's fix is applied and the checks repeated
        main = outcomes[stopped_early[0]]
        for key in RUN_STOPPED_KEYS:
            if key in main.evidence:
                evidence[key] = main.evidence[key]
        return Outcome(COULD_NOT_RUN, main.reason, evidence)
    main = next(outcomes[k] for k in deciding if outcomes[k].verdict == NOT_REPRODUCED)
    return Outcome(NOT_REPRODUCED, main.reason, evidence)


def run_job(job: dict[str, Any], timeout: float | None) -> dict[str, Any]:
    start = time.perf_counter()
    kinds = list(job.get("kinds") or [])
    result: dict[str, Any] = {"id": job["id"]}
    if job.get("error") or not kinds:
        result.update(verdict=COULD_NOT_RUN, reason=job.get("error") or "no verifier", evidence={})
        result["seconds"] = time.perf_counter() - start
        return result
    outcomes: dict[str, Outcome] = {}
    try:
        with time_limit(timeout):
            side = Side(job)
            for kind in kinds:
                if kind in EXPENSIVE and any(o.verdict == CONFIRMED for o in outcomes.values()):
                    continue  # already confirmed: skip the slow extra check
                outcomes[kind] = run_kind(kind, side)
                _reset()
            kinds = [k for k in kinds if k in outcomes]
            final = combine(kinds, outcomes)
            if final.verdict == COULD_NOT_RUN:
                unmasked = _unmask(job, kinds, outcomes)
                if unmasked is not None:
                    final, outcomes = unmasked
            if final.verdict != CONFIRMED:
                other = _other_calls(job, kinds)
                if other is not None:
                    final, outcomes, job = other
            if job.get("fix") and final.verdict == CONFIRMED and job.get("check_fix", True):
                final.evidence["fix"] = check_fix(job, kinds, outcomes)
    except Exception as exc:  # a bug of ours: this finding fails, the others still run
        final = Outcome(
            COULD_NOT_RUN,
            f"internal error in the verifier: {type(exc).__name__}: {short_message(exc)}",
            {"internal": traceback.format_exc(limit=8)[-2000:]},
        )
    except VerifyTimeout as exc:
        done = {k: o.verdict for k, o in outcomes.items()}
        final = Outcome(COULD_NOT_RUN, f"{exc} (raise --timeout)", {"checks": done} if done else {})
        if outcomes and any(o.verdict == CONFIRMED for o in outcomes.values()):
            final = combine(list(outcomes), outcomes)
            final.evidence["fix"] = {"verdict": COULD_NOT_RUN, "reason": str(exc)}
    finally:
        _reset()
    if job.get("entry"):
        final.evidence.setdefault("entry", job["entry"].get("mode"))
    if job.get("guessed"):
        final.evidence["inputs_guessed"] = True
    result.update(verdict=final.verdict, reason=final.reason, evidence=final.evidence)
    result["seconds"] = round(time.perf_counter() - start, 4)
    return result


def _other_calls(
    job: dict[str, Any], kinds: Sequence[str]
) -> tuple[Outcome, dict[str, Outcome], dict[str, Any]] | None:
    """The program called the entry more than once with different inputs (recorded by
    --capture-main/--capture-cmd): when the first call did not confirm, try the others in
    turn; the first that reaches the flagged line and confirms decides (with its job, so the
    fix check runs on the same inputs)."""
    entry = job.get("entry") or {}
    for number, inputs in enumerate(entry.get("alternatives") or [], start=2):
        other = {**job, "entry": {**entry, "inputs": inputs, "alternatives": []}}
        side = Side(other)
        outcomes: dict[str, Outcome] = {}
        for kind in kinds:
            if kind in EXPENSIVE and any(o.verdict == CONFIRMED for o in outcomes.values()):
                continue
            outcomes[kind] = run_kind(kind, side)
            _reset()
        used = [k for k in kinds if k in outcomes]
        final = combine(used, outcomes)
        if final.verdict == CONFIRMED:
            recorded = ", ".join(f"{n}={spec}" for n, spec, where in inputs if where == "capture")
            final.evidence["captured"] = f"{entry.get('function')}({recorded})"
            final.evidence["captured_call"] = number
            final.reason += f" (with recorded call #{number}: the first did not confirm)"
            return final, outcomes, other
    return None


def _unmask(
    job: dict[str, Any], kinds: Sequence[str], outcomes: dict[str, Outcome]
) -> tuple[Outcome, dict[str, Outcome]] | None:
    """A check stopped at another finding's line: apply that finding's fix and try again (a few
    times), so each finding is judged on its own line."""
    applied: list[dict[str, Any]] = []
    current = outcomes
    for _ in range(3):
        masked = [o.evidence["masked_by"] for o in current.values() if o.evidence.get("masked_by")]
        if not masked or not masked[0].get("has_fix"):
            return None
        blocker = next(
            (
                o
                for o in job.get("others", [])
                if o["line"] == masked[0]["line"] and o["code"] == masked[0]["code"]
            ),
            None,
        )
        if blocker is None or not blocker.get("edits") or blocker in applied:
            return None
        applied.append(blocker)
        side = Side(job, unmask=applied)
        current = {}
        for kind in kinds:
            current[kind] = run_kind(kind, side)
            _reset()
        final = combine(kinds, current)
        if final.verdict != COULD_NOT_RUN:
            shown = ", ".join(f"{o['code']} at line {o['line']}" for o in applied)
            final.evidence["unmasked_by_fixing"] = [
                {"code": o["code"], "line": o["line"]} for o in applied
            ]
            final.reason += f" (with the fix of {shown} applied first)"
            return final, current
    return None


def check_fix(
    job: dict[str, Any], kinds: Sequence[str], original: dict[str, Outcome]
) -> dict[str, Any]:
    """Run the deciding kinds on the fixed source; compare results where the fix keeps them.

    Other findings on the same lines get their fixes too (a fix run fixes them together)."""
    same_line = [
        o
        for o in job.get("others", [])
        if o.get("edits")
        and o["line"] in job["lines"]
        and not (
            o["code"] == job["code"]
            and o["line"] == job["line"]
            and o["edits"] == job["fix"].get("edits")
        )
        and not _overlaps(o["edits"], job["fix"].get("edits") or [])
        and job["fix"].get("text") is None
    ]
    side = Side(job, fixed=True, unmask=same_line)
    deciding = [k for i, k in enumerate(kinds) if i == 0 or k not in SUPPLEMENTARY]
    out: dict[str, Any] = {"safety": job["fix"].get("safety")}
    verdicts = {}
    for kind in deciding:
        if original[kind].verdict != CONFIRMED:
            continue
        outcome = run_kind(kind, side)
        _reset()
        verdicts[kind] = outcome.verdict
        out[kind] = {
            "verdict": outcome.verdict,
            "reason": outcome.reason,
            **_small(outcome.evidence),
        }
    if verdicts:
        values = list(verdicts.values())
        out["verdict"] = (
            CONFIRMED
            if CONFIRMED in values
            else NOT_REPRODUCED
            if NOT_REPRODUCED in values
            else COULD_NOT_RUN
        )
    numeric = original.get("numeric")
    if job.get("verify", {}).get("changes_result"):
        out["results"] = {
            "compared": False,
            "reason": "the fix is meant to change the result (the original computes a wrong value)",
        }
    elif numeric is not None and "compared" in numeric.evidence:
        out["results"] = {k: v for k, v in numeric.evidence.items() if k != "checks"}
    elif any(k in RESULT_PRESERVING for k in deciding):
        try:
            out["results"] = compare_sides(Side(job), side)
        except CouldNotRun as exc:
            out["results"] = {"compared": False, "reason": str(exc)}
        except VerifyTimeout:
            raise
        except Exception as exc:
            out["results"] = {
                "compared": False,
                "reason": f"{type(exc).__name__}: {short_message(exc)}",
            }
        _reset()
    return out


def _overlaps(a: Sequence[Sequence[Any]], b: Sequence[Sequence[Any]]) -> bool:
    def span(e: Sequence[Any]) -> tuple[tuple[int, int], tuple[int, int]]:
        return (e[0], e[1]), (e[2], e[3])

    for x in a:
        for y in b:
            (s1, e1), (s2, e2) = span(x), span(y)
            if s1 < e2 and s2 < e1 or s1 == e1 == s2 == e2:
                return True
    return False


def _small(evidence: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in evidence.items() if k not in ("internal",)}


def _reset() -> None:
    """Forget the user modules of the last check. JAX's caches are kept: every check loads the
    user's module afresh, so its functions are new objects that no cache entry can match, while
    JAX's own compiled helpers (samplers, jnp ops) stay warm across checks."""
    for name in [n for n in sys.modules if n.startswith("_jaxlint_verify_")]:
        sys.modules.pop(name, None)


def environment() -> dict[str, Any]:
    import jax

    try:
        backend = jax.default_backend()
        devices = jax.device_count()
    except Exception as exc:  # pragma: no cover
        backend, devices = f"unavailable: {exc}", 0
    return {"jax": jax.__version__, "backend": backend, "device_count": devices}


HUNG_EXIT = 86  # exit code of a worker whose watchdog gave up on a job


def _watchdog(state: dict[str, Any], limit: float, progress: str | None) -> None:
    """A job stuck where SIGALRM cannot reach it (inside XLA, a C extension): record it and end
    the process, so the parent can carry on with the other jobs in a fresh one."""
    while True:
        time.sleep(0.25)
        job = state.get("job")
        if job is not None and time.monotonic() - state["since"] > limit:
            if progress:
                try:
                    with open(progress, "a", encoding="utf-8") as handle:
                        handle.write(json.dumps({"hung": job, "seconds": limit}) + "\n")
                except OSError:
                    pass
            os._exit(HUNG_EXIT)


def worker(payload: dict[str, Any]) -> dict[str, Any]:
    """Sandbox entry: run every job, appending each result to `progress` (a JSON-lines file)."""
    import threading

    timeout = payload.get("timeout")
    progress = payload.get("progress")
    results = []
    env = environment()
    state: dict[str, Any] = {"job": None, "since": 0.0}
    if timeout:
        limit = 2 * float(timeout) + 15
        threading.Thread(target=_watchdog, args=(state, limit, progress), daemon=True).start()
    for job in payload["jobs"]:
        if progress:
            with open(progress, "a", encoding="utf-8") as handle:
                handle.write(json.dumps({"started": job["id"]}) + "\n")
        state.update(job=job["id"], since=time.monotonic())
        result = run_job(job, timeout)
        state.update(job=None)
        result = to_json(result)
        results.append(result)
        if progress:
            with open(progress, "a", encoding="utf-8") as handle:
                handle.write(json.dumps({"result": result}) + "\n")
    return {**env, "results": results}


def to_json(value: Any) -> Any:
    from jaxlint.runtime.sandbox import to_jsonable

    return to_jsonable(value)


__all__ = [
    "CONFIRMED",
    "COULD_NOT_RUN",
    "NOT_REPRODUCED",
    "CouldNotRun",
    "Entry",
    "Outcome",
    "Probe",
    "Side",
    "UserModule",
    "capture_stdout",
    "confirmed",
    "could_not_run",
    "describe_exception",
    "exception_lines",
    "not_reproduced",
    "run_job",
    "stack_lines",
    "stopped",
    "worker",
]
