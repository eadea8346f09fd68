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
        "message": job["message"],
        "function": job["function"],
        "verifier": "+".join(job["kinds"]) or None,
        "verdict": result["verdict"],
        "reason": result.get("reason", ""),
        "evidence": evidence,
        "seconds": result.get("seconds"),
    }


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
    env = f"JAX {report.get('jax', '?')} on {report.get('backend', '?')}"
    lines.append(f"{head}: {len(report['findings'])} finding(s) verified ({env})")
    capture = report.get("capture")
    if capture:
        lines.append(f"inputs captured from `{capture.get('command')}`: {capture.get('reason')}")
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
