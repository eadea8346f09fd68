"""The report of `jaxlint verify`: one finding's entry from its job and result, and the text view.

`finding_report` is what `--format json`, the MCP tool and batch runs (`verify_jobs`) show per
finding; `render_text` prints a file's report with the evidence in a fixed order
(`EVIDENCE_ORDER`), so the most telling facts come first. No JAX import here.
"""

from __future__ import annotations

import json
from typing import Any

from jaxlint.runtime.toolbox.common import format_seconds

VERDICTS = ("confirmed", "not-reproduced", "could-not-run")


def finding_report(job: dict[str, Any], result: dict[str, Any] | None) -> dict[str, Any]:
    result = result or {
        "verdict": "could-not-run",
        "reason": "no result (the verifier process ended early)",
        "evidence": {},
        "seconds": None,
    }
    evidence = dict(result.get("evidence", {}))
    entry = job.get("entry") or {}
    recorded = [(n, spec) for n, spec, where in entry.get("inputs", []) if where == "capture"]
    if recorded:
        evidence.setdefault(
            "captured",
            f"{entry.get('function')}(" + ", ".join(f"{n}={spec}" for n, spec in recorded) + ")",
        )
    return {
        "code": job["code"],
        "name": job["name"],
        "line": job["line"],
        "col": job["col"],
        # 1-based, as `jaxlint check --format json`'s `column` (`col` stays 0-based: the
        # format's first field, kept for the tools that read it)
        "column": job["col"] + 1,
        "message": job["message"],
        "function": job["function"],
        "verifier": "+".join(job["kinds"]) or None,
        "verdict": result["verdict"],
        "reason": result.get("reason", ""),
        "evidence": evidence,
        "seconds": result.get("seconds"),
    }


def reconcile(jobs: list[dict[str, Any]], findings: list[dict[str, Any]]) -> None:
    """Use one finding's run as evidence for another, on that other finding's own line.

    A check that stopped at another finding's line reports `masked_by` with the exception it
    saw there. When that finding could not run on its own (its function needs an input, say)
    and the exception is the one its rule predicts, the run that stopped at its line IS its
    confirmation: saying "could not run" beside "masked by it" contradicts the report. Only the
    flagged line's own exception counts (never evidence from another line). Changes `findings`
    in place."""
    by_place = {(f["code"], f["line"]): (job, f) for job, f in zip(jobs, findings)}
    for other in findings:
        evidence = other.get("evidence") or {}
        for key, masked_by in list(evidence.items()):
            if not key.endswith("masked_by") or not isinstance(masked_by, dict):
                continue
            prefix = key[: -len("masked_by")]
            target = by_place.get((masked_by.get("code"), masked_by.get("line")))
            if target is None:
                continue
            target_job, finding = target
            if finding["verdict"] != "could-not-run":
                continue
            info = {
                name: evidence.get(prefix + name)
                for name in ("exception", "message", "mro", "at_line", "ran")
            }
            if info["at_line"] not in (target_job.get("lines") or [target_job["line"]]):
                continue
            if not _predicted(target_job, info):
                continue
            finding["verdict"] = "confirmed"
            finding["reason"] = (
                f"line {info['at_line']} raised {info['exception']}: {info['message']} (seen "
                f"when the check of {other['code']} at line {other['line']} ran "
                f"{info['ran'] or 'the code'} and stopped at this line)"
            )
            finding["evidence"] = {
                **{k: v for k, v in info.items() if v is not None and k != "mro"},
                "seen_by": {"code": other["code"], "line": other["line"]},
                "could_not_run_alone": finding.get("reason"),
                **{k: v for k, v in (finding.get("evidence") or {}).items() if k == "checks"},
            }
            break


def _predicted(job: dict[str, Any], info: dict[str, Any]) -> bool:
    """Is `info`'s exception the one this finding's rule says its line raises?"""
    kinds = job.get("kinds") or []
    text = " ".join(
        str(x) for x in (info.get("exception"), *(info.get("mro") or []), info.get("message"))
    )
    if not kinds or not info.get("exception"):
        return False
    if kinds[0] == "keycheck":
        return "KeyReuseError" in text
    if kinds[0] != "trace":
        return False
    expected = (job.get("verify") or {}).get("expect")
    if expected:
        return any(needle in text for needle in expected)
    return any(name in text for name in TRACE_ERRORS)


# exceptions that say a traced value was used where Python needs a concrete one (a `trace`
# finding whose rule lists no `expect` is predicted by one of these)
TRACE_ERRORS = (
    "TracerBoolConversionError",
    "TracerIntegerConversionError",
    "TracerArrayConversionError",
    "ConcretizationTypeError",
    "NonConcreteBooleanIndexError",
)


# --------------------------------------------------------------------------- text output


def _fmt_seconds(value: Any) -> str:
    """A finding's `seconds` as the toolbox prints seconds; anything but a number is n/a."""
    return format_seconds(value if isinstance(value, (int, float)) else None)


EVIDENCE_ORDER = (
    "exception",
    "message",
    "at_line",
    "classification",
    "static_fix",
    "key_reuse_error",
    "identical_draws",
    "draws",
    "correlation",
    "collisions",
    "executions",
    "compiles",
    "compiles_per_execution",
    "miss_reason",
    "calls",
    "body_runs",
    "printed",
    "leak",
    "same_trace_equal",
    "fresh_traces_equal",
    "jaxpr_eqns",
    "line_traced",
    "hlo_ops",
    "flops",
    "memory",
    "transfer_error",
    "warnings",
    "out_dtype",
    "names",
    "original",
    "fixed_timing",
    "underreport",
    "speedup",
    "outputs_match",
    "max_abs_diff",
    "ran",
    "captured",
)


def _value(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, (dict, list)):
        text = json.dumps(value, default=str)
        return text if len(text) <= 240 else text[:237] + "..."
    return str(value)


def render_text(report: dict[str, Any]) -> str:
    lines = []
    head = f"{report['file']}" + (f"::{report['function']}" if report.get("function") else "")
    if not report["findings"]:  # nothing ran: no JAX version or backend to name
        lines.append(f"{head}: no findings to verify (`jaxlint check` reports none here)")
    else:
        jax, backend = report.get("jax"), report.get("backend")
        # no JAX ran (every finding needed an input first): nothing to name
        env = f" (JAX {jax} on {backend})" if jax and backend else ""
        lines.append(f"{head}: {len(report['findings'])} finding(s) verified{env}")
    capture = report.get("capture")
    if capture:
        if capture.get("command"):
            lines.append(f"inputs captured from `{capture['command']}`: {capture.get('reason')}")
        else:  # nothing was run (no finding a captured call could check)
            lines.append(f"no inputs captured: {capture.get('reason')}")
        tail = [line for line in capture.get("stderr_tail") or [] if line.strip()]
        if not capture.get("ok") and tail:
            lines.append(f"  its last output: {tail[-1].strip()[:300]}")
    for finding in report["findings"]:
        where = f"{report['file']}:{finding['line']}:{finding['col'] + 1}"
        fn = f" in {finding['function']}" if finding.get("function") else ""
        lines.append("")
        lines.append(f"{where}: {finding['code']} {finding['name']}{fn}")
        lines.append(
            f"  verdict   {finding['verdict'].upper()}  ({finding.get('verifier') or 'no verifier'}, {_fmt_seconds(finding.get('seconds'))})"
        )
        if finding.get("reason"):
            lines.append(f"  why       {finding['reason']}")
        evidence = dict(finding.get("evidence") or {})
        evidence.pop("checks", None)
        fix = evidence.pop("fix", None)
        keys = [k for k in EVIDENCE_ORDER if k in evidence] + [
            k for k in evidence if k not in EVIDENCE_ORDER
        ]
        skip = {"mro", "user_frames", "internal", "entry", "stderr_tail"}
        for key in keys:
            if key in skip or key.endswith(".ran") or evidence[key] in (None, [], {}):
                continue
            lines.append(f"  {key:<9} {_value(evidence[key])}")
        if fix:
            summary = fix.get("verdict", "n/a")
            results = fix.get("results") or {}
            extra = ""
            if results.get("compared"):
                extra = f"; same results: {results.get('outputs_match')}"
            elif results.get("reason"):
                extra = f"; results not compared ({results['reason']})"
            lines.append(f"  fix       ({fix.get('safety')}) after the fix: {summary}{extra}")
    summary = report.get("summary", {})
    lines.append("")
    lines.append(
        ", ".join(f"{summary.get(v, 0)} {v}" for v in VERDICTS)
        + (
            f" in {report['seconds']:.1f} s"
            if isinstance(report.get("seconds"), (int, float))
            else ""
        )
    )
    return "\n".join(lines)
