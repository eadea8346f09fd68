"""`jaxlint verify PATH[::FUNCTION]`: confirm each finding by running the code with JAX.

The parent (this module, no JAX import) lints the file in-process with the file's configuration,
plans one job per finding (`verify_plan`: entry, inputs, fixed source), and runs all jobs in ONE
sandboxed child (`sandbox.run_isolated` -> `verify_runtime.worker`): the module is imported by
path under a private name, so its `__main__` block never runs. Jobs that need several devices
(simulated with `--xla_force_host_platform_device_count` on CPU) run in a second child. The child
appends each result to a progress file; if it crashes or hangs, the results it finished are kept,
the job it was on becomes `could-not-run` with the reason, and the rest run in a new child.

Verdicts: `confirmed` (the sharp bit happened, with evidence), `not-reproduced` (the code ran and it
did not happen with these inputs), `could-not-run` (and why). Exit 0 whenever it ran, 2 for usage
errors and when JAX is missing.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from jaxlint.errors import JaxMissingError, UsageError

DEFAULT_TIMEOUT = 60.0
STARTUP_SECONDS = 60.0  # child start-up (importing JAX) on top of the per-finding budget
VERDICTS = ("confirmed", "not-reproduced", "could-not-run")


# --------------------------------------------------------------------------- CLI


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "verify",
        help="confirm findings by running the flagged code with JAX (in a subprocess)",
        description="Lint PATH, then run each finding's runtime verifier in a sandboxed "
        "subprocess and report confirmed / not-reproduced / could-not-run with evidence.",
    )
    parser.add_argument(
        "target", metavar="PATH[::FUNCTION]", help="file, optionally with one function to verify"
    )
    parser.add_argument(
        "--args",
        default=None,
        metavar="SPEC",
        help='example inputs of FUNCTION, e.g. "f32[8,128], i32[], key, 3" '
        "(without FUNCTION: of every function whose arity fits)",
    )
    parser.add_argument(
        "--static", default=None, metavar="NAMES", help="comma-separated parameters to keep static"
    )
    parser.add_argument(
        "--select", default=None, metavar="CODES", help="only verify these rule codes/prefixes"
    )
    parser.add_argument(
        "--guess-inputs",
        action="store_true",
        help="fill parameters without inputs by name (key-like: key, n/i/size-like: 3, else f32[8])",
    )
    capture = parser.add_mutually_exclusive_group()
    capture.add_argument(
        "--capture-main",
        action="store_true",
        help="record real inputs by running the file's own `if __name__ == '__main__':` block",
    )
    capture.add_argument(
        "--capture-cmd",
        default=None,
        metavar="CMD",
        help='record real inputs by running CMD, e.g. "pytest tests/test_train.py -x" or '
        '"python train.py --steps 2"',
    )
    parser.add_argument(
        "--capture-timeout",
        type=float,
        default=None,
        metavar="S",
        help="time limit of the captured run in seconds (default: 120)",
    )
    parser.add_argument(
        "--no-fix-check",
        action="store_true",
        help="do not also verify each finding's fix (faster)",
    )
    parser.add_argument(
        "--config", default=None, help="a pyproject.toml to use instead of discovery"
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed for the example inputs (default: 0)"
    )
    parser.add_argument(
        "--format", choices=("text", "json"), default="text", help="output format (default: text)"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="S",
        help=f"time limit per finding in seconds (default: {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--memory-mb",
        type=int,
        default=None,
        metavar="MB",
        help="address-space limit for the JAX subprocess (JAX itself needs ~2000)",
    )
    parser.set_defaults(handler=handle_verify)


def handle_verify(args: argparse.Namespace) -> int:
    import importlib.util

    if importlib.util.find_spec("jax") is None:
        raise JaxMissingError("verify")
    if args.timeout <= 0:
        raise UsageError("--timeout must be positive")
    if args.memory_mb is not None and args.memory_mb <= 0:
        raise UsageError("--memory-mb must be positive")
    path, function = split_target(args.target)
    if args.args:
        from jaxlint.runtime_checks.inputs import parse_specs, split_items

        try:
            parse_specs([i for i in split_items(args.args) if not i.strip().startswith("=")])
        except UsageError as exc:
            raise UsageError(f"--args: {exc}") from None
    static = tuple(s.strip() for s in (args.static or "").split(",") if s.strip())
    if args.capture_timeout is not None and args.capture_timeout <= 0:
        raise UsageError("--capture-timeout must be positive")
    report = verify_file(
        path,
        function=function,
        args=args.args,
        static=static,
        select=args.select,
        guess=args.guess_inputs,
        check_fixes=not args.no_fix_check,
        config=args.config,
        seed=args.seed,
        timeout=args.timeout,
        memory_mb=args.memory_mb,
        echo=False,
        capture_main=args.capture_main,
        capture_cmd=args.capture_cmd,
        capture_timeout=args.capture_timeout,
    )
    report["file"] = args.target.partition("::")[0]
    if args.format == "json":
        print(json.dumps(report, indent=2, default=str))
    else:
        print(render_text(report))
    return 0


def split_target(target: str) -> tuple[str, str | None]:
    path, sep, function = target.partition("::")
    if not path:
        raise UsageError("no file given; use PATH or PATH::FUNCTION")
    if sep and not function:
        raise UsageError(f"no function after '::' in {target!r}")
    if not os.path.isfile(path):
        raise UsageError(f"no such file: {path!r}")
    if not path.endswith((".py", ".pyi")):
        raise UsageError(f"{path!r} is not a Python file (.py)")
    return path, function or None


# --------------------------------------------------------------------------- Python API


def lint_for_verify(
    path: str,
    text: str,
    *,
    config: str | None = None,
    select: str | None = None,
) -> tuple[list[Any], Any]:
    """Lint `text` the way `jaxlint check` would for `path` (its config); returns (diags, settings)."""
    from jaxlint.config import ConfigResolver, parse_codes_arg
    from jaxlint.engine import LintOptions, lint_text

    settings = ConfigResolver(config).for_path(path)
    options = LintOptions(settings=settings)
    diags = [d for d in lint_text(text, path, options) if d.code != "JAX000"]
    if select:
        prefixes = parse_codes_arg(select, "--select")
        diags = [d for d in diags if "ALL" in prefixes or d.code.startswith(prefixes)]
    return diags, settings


def verify_file(
    path: str,
    *,
    function: str | None = None,
    args: str | None = None,
    static: Sequence[str] = (),
    select: str | None = None,
    guess: bool = False,
    check_fixes: bool = True,
    config: str | None = None,
    seed: int = 0,
    timeout: float = DEFAULT_TIMEOUT,
    memory_mb: int | None = None,
    table: dict[str, Any] | None = None,
    echo: bool = False,
    capture_main: bool = False,
    capture_cmd: str | Sequence[str] | None = None,
    capture_timeout: float | None = None,
    capture_calls: int | None = None,
) -> dict[str, Any]:
    """Lint, plan and verify one file; the report `jaxlint verify --format json` prints.

    `capture_main=True` (or `capture_cmd="pytest tests/ -x"`) first runs the user's own program
    and records the real inputs of the functions with findings (`capture.run_capture`); they
    come before every other input source except `args`. The report then has a `capture` entry
    and each finding whose entry used recorded inputs shows them as `evidence.captured`."""
    from jaxlint.files.read import read_source
    from jaxlint.rules import rules_by_code
    from jaxlint.runtime_checks.verify_plan import InputOptions, function_of, plan_file
    from jaxlint.source import ReadError

    try:
        source = read_source(path)
    except ReadError as exc:
        raise UsageError(f"cannot read {path!r}: {exc}") from None
    diags, settings = lint_for_verify(path, source.text, config=config, select=select)
    import ast

    try:
        tree = ast.parse(source.text)
    except SyntaxError as exc:
        raise UsageError(f"cannot parse {path!r}: {exc}") from None
    every = list(diags)
    from jaxlint.config import warn
    from jaxlint.runtime_checks.verify_plan import unmatched_config_entries

    for message in unmatched_config_entries(settings, path, tree):
        warn(message)
    if function is not None:
        node = _check_function_exists(tree, function, path)
        _check_args_count(node, function, args)
        from jaxlint.analysis.imports import ModuleIndex

        ModuleIndex(tree)  # parent links for function_of
        diags = [d for d in diags if function_of(d, tree, source) == function]
    capture_report = None
    captured: dict[str, dict[str, str | None]] = {}
    if capture_main or capture_cmd:
        capture_report, captured = _capture(
            path,
            source,
            diags,
            settings,
            main=capture_main,
            command=capture_cmd,
            timeout=capture_timeout,
            max_calls=capture_calls,
            memory_mb=memory_mb,
        )
    options = InputOptions(
        function=function,
        args=args,
        static=tuple(static),
        guess=guess,
        table=dict(table or {}),
        captured=captured,
    )
    jobs = plan_file(
        path,
        source,
        diags,
        settings,
        rules_by_code(),
        options,
        with_fixes=check_fixes,
        context=every,
    )
    for job in jobs:
        job["seed"] = seed
    started = time.perf_counter()
    results, env = run_jobs(jobs, timeout=timeout, memory_mb=memory_mb, echo=echo)
    findings = [finding_report(job, results.get(job["id"])) for job in jobs]
    summary = {v: sum(1 for f in findings if f["verdict"] == v) for v in VERDICTS}
    report = {
        "file": path,
        "function": function,
        **env,
        "findings": findings,
        "summary": summary,
        "seconds": round(time.perf_counter() - started, 3),
    }
    if capture_report is not None:
        report["capture"] = capture_report
    return report


def plan_captured(
    path: str,
    *,
    main: bool = True,
    command: str | Sequence[str] | None = None,
    check_fixes: bool = True,
    config: str | None = None,
    select: str | None = None,
    capture_timeout: float | None = None,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Lint `path`, capture real inputs from its `__main__` block (or `command`) and plan its jobs;
    returns (jobs, capture report). For batches: `verify_jobs([jobs, ...])` runs many files'
    jobs in one subprocess."""
    from jaxlint.files.read import read_source
    from jaxlint.rules import rules_by_code
    from jaxlint.runtime_checks.verify_plan import InputOptions, plan_file

    source = read_source(path)
    diags, settings = lint_for_verify(path, source.text, config=config, select=select)
    report, captured = _capture(
        path,
        source,
        diags,
        settings,
        main=main and command is None,
        command=command,
        timeout=capture_timeout,
        max_calls=None,
        memory_mb=None,
    )
    jobs = plan_file(
        path,
        source,
        diags,
        settings,
        rules_by_code(),
        InputOptions(captured=captured),
        with_fixes=check_fixes,
    )
    return jobs, report


def _capture(
    path: str,
    source: Any,
    diags: Sequence[Any],
    settings: Any,
    *,
    main: bool,
    command: str | Sequence[str] | None,
    timeout: float | None,
    max_calls: int | None,
    memory_mb: int | None,
) -> tuple[dict[str, Any], dict[str, dict[str, str | None]]]:
    """Run the program once, recording the inputs of every function an entry could start from."""
    from jaxlint.runtime_checks.capture import (
        DEFAULT_CAPTURE_TIMEOUT,
        DEFAULT_MAX_CALLS,
        captured_inputs,
        run_capture,
        signature_text,
    )
    from jaxlint.runtime_checks.verify_plan import capture_targets

    targets = capture_targets(path, source, diags, settings)
    if not targets:
        return {"ok": False, "reason": "no finding to capture inputs for", "functions": {}}, {}
    outcome = run_capture(
        path,
        main=main,
        command=command,
        targets=targets,
        timeout=timeout or DEFAULT_CAPTURE_TIMEOUT,
        max_calls=max_calls or DEFAULT_MAX_CALLS,
        memory_mb=memory_mb,
    )
    signatures = {
        qualname: [signature_text(s) for s in record.get("signatures", [])]
        for qualname, record in outcome["functions"].items()
        if qualname in targets
    }
    report = {
        "command": outcome["command"],
        "ok": outcome["ok"],
        "reason": outcome["reason"],
        "seconds": outcome["seconds"],
        "signatures": signatures,
    }
    if outcome.get("stderr_tail"):
        report["stderr_tail"] = outcome["stderr_tail"][-8:]
    return report, captured_inputs(outcome["functions"])


def plan_text(
    path: str,
    text: str,
    *,
    codes: Sequence[str] | None = None,
    inputs: Any = None,
    settings: Any = None,
    check_fixes: bool = True,
) -> list[dict[str, Any]]:
    """Lint `text` as `path` (only `codes` when given) and plan its jobs; for batch runs."""
    from jaxlint.config import Settings
    from jaxlint.engine import LintOptions, lint_text
    from jaxlint.rules import rules_by_code
    from jaxlint.runtime_checks.verify_plan import InputOptions, plan_file

    settings = settings or Settings()
    options = LintOptions(settings=settings, codes=frozenset(codes) if codes else None)
    diags = [d for d in lint_text(text, path, options) if d.code != "JAX000"]
    return plan_file(
        path,
        text,
        diags,
        settings,
        rules_by_code(),
        inputs or InputOptions(),
        with_fixes=check_fixes,
    )


def verify_jobs(
    batches: Sequence[Sequence[dict[str, Any]]],
    *,
    timeout: float = DEFAULT_TIMEOUT,
    memory_mb: int | None = None,
    parallel: int = 1,
) -> tuple[list[list[dict[str, Any]]], dict[str, Any]]:
    """Run the jobs of several planned files in as few subprocesses as possible.

    Returns one list of finding reports per batch (same order) and the JAX environment.
    """
    numbered: list[dict[str, Any]] = []
    owners: list[tuple[int, dict[str, Any]]] = []
    for b, jobs in enumerate(batches):
        for job in jobs:
            copy = dict(job)
            copy["id"] = len(numbered)
            numbered.append(copy)
            owners.append((b, copy))
    results, env = run_jobs(numbered, timeout=timeout, memory_mb=memory_mb, parallel=parallel)
    out: list[list[dict[str, Any]]] = [[] for _ in batches]
    for b, job in owners:
        out[b].append(finding_report(job, results.get(job["id"])))
    return out, env


def _check_function_exists(tree: Any, function: str, path: str) -> Any:
    import ast

    parts = function.split(".")
    body = tree.body
    for part in parts:
        found = None
        for stmt in body:
            if (
                isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                and stmt.name == part
            ):
                found = stmt
        if found is None:
            names = sorted(
                s.name for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
            )
            raise UsageError(
                f"{path!r} has no function {function!r} (functions: {', '.join(names) or 'none'})"
            )
        body = getattr(found, "body", [])
    return found


def _check_args_count(node: Any, function: str, args: str | None) -> None:
    """More `--args` items than `function` has positional parameters is a usage error (they
    used to be dropped without a word)."""
    import ast

    from jaxlint.runtime_checks.inputs import split_items

    if not args or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return
    if node.args.vararg is not None:
        return
    params = [a.arg for a in (*node.args.posonlyargs, *node.args.args)]
    items = split_items(args)
    if len(items) > len(params):
        takes = ", ".join(params) if params else "no parameters"
        raise UsageError(
            f"--args has {len(items)} item{'s' if len(items) != 1 else ''} but `{function}` takes "
            f"{len(params)} positional parameter{'s' if len(params) != 1 else ''} ({takes})"
        )


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


# --------------------------------------------------------------------------- running jobs


def child_env(devices: int | None) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("JAX_PLATFORMS", "cpu")
    if devices and env.get("JAX_PLATFORMS", "cpu") == "cpu":
        flag = f"--xla_force_host_platform_device_count={devices}"
        flags = env.get("XLA_FLAGS", "")
        if "xla_force_host_platform_device_count" not in flags:
            env["XLA_FLAGS"] = f"{flags} {flag}".strip()
    return env


def run_jobs(
    jobs: Sequence[dict[str, Any]],
    *,
    timeout: float = DEFAULT_TIMEOUT,
    memory_mb: int | None = None,
    echo: bool = False,
    parallel: int = 1,
) -> tuple[dict[int, dict[str, Any]], dict[str, Any]]:
    """Run jobs in as few children as possible (`parallel` children at a time, each with its share
    of the jobs); returns ({job id: result}, environment)."""
    from concurrent.futures import ThreadPoolExecutor

    results: dict[int, dict[str, Any]] = {}
    env: dict[str, Any] = {}
    runnable = []
    for job in jobs:
        if job.get("error") or not job.get("kinds"):
            results[job["id"]] = {
                "id": job["id"],
                "verdict": "could-not-run",
                "reason": job.get("error") or "no verifier",
                "evidence": {},
                "seconds": 0.0,
            }
        else:
            runnable.append(job)
    groups: dict[int | None, list[dict[str, Any]]] = {}
    for job in runnable:
        groups.setdefault(job.get("devices"), []).append(job)
    chunks: list[tuple[int | None, list[dict[str, Any]]]] = []
    for devices, group in groups.items():
        for part in _split_by_file(group, parallel):
            chunks.append((devices, part))
    with ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
        futures = [
            (devices, pool.submit(_run_group, part, timeout, memory_mb, child_env(devices), echo))
            for devices, part in chunks
        ]
        for devices, future in futures:
            got, info = future.result()
            results.update(got)
            if info and (not env or devices is None):
                env = info
    return results, env


def _split_by_file(jobs: list[dict[str, Any]], parts: int) -> list[list[dict[str, Any]]]:
    """Up to `parts` shares of about equal size; the jobs of one file stay in one share (they
    reuse its executed module)."""
    files: dict[str, list[dict[str, Any]]] = {}
    for job in jobs:
        files.setdefault(job.get("file", ""), []).append(job)
    shares: list[list[dict[str, Any]]] = [[] for _ in range(max(1, min(parts, len(files))))]
    for group in sorted(files.values(), key=len, reverse=True):
        min(shares, key=len).extend(group)
    return [share for share in shares if share]


def _run_group(
    jobs: list[dict[str, Any]],
    timeout: float,
    memory_mb: int | None,
    env: dict[str, str],
    echo: bool,
) -> tuple[dict[int, dict[str, Any]], dict[str, Any]]:
    from jaxlint.runtime_checks.sandbox import run_isolated

    results: dict[int, dict[str, Any]] = {}
    info: dict[str, Any] = {}
    pending = list(jobs)
    while pending:
        fd, progress = tempfile.mkstemp(prefix="jaxlint-verify-", suffix=".jsonl")
        os.close(fd)
        try:
            budget = STARTUP_SECONDS + timeout * len(pending) * 2.5
            outcome = run_isolated(
                "jaxlint.runtime_checks.verify_runtime:worker",
                {"jobs": pending, "timeout": timeout, "progress": progress},
                timeout=budget,
                memory_mb=memory_mb,
                default_platforms=None,
                env=env,
                echo_stderr=echo,
            )
            done, started, hung = _read_progress(progress)
        finally:
            try:
                os.unlink(progress)
            except OSError:
                pass
        if outcome.get("ok"):
            payload = outcome["result"]
            info = {k: v for k, v in payload.items() if k != "results"}
            for result in payload["results"]:
                results[result["id"]] = result
            break
        results.update(done)
        crashed = [jid for jid in started if jid not in done]
        reason = outcome.get("reason", "the verifier process failed")
        error = outcome.get("error") or {}
        if error.get("type") in ("UsageError", "JaxMissingError"):
            raise UsageError(error.get("message", "usage error"))
        if not started:  # it died before the first job: every job would fail the same way
            for job in pending:
                results[job["id"]] = {
                    "id": job["id"],
                    "verdict": "could-not-run",
                    "reason": f"the verifier process could not start: {reason}",
                    "evidence": {"stderr_tail": outcome.get("stderr_tail", [])[-8:]},
                    "seconds": None,
                }
            break
        for jid in crashed or [pending[0]["id"]]:
            why = (
                f"hung: no result after {hung[jid]:g} s, and the time limit could not interrupt it"
                if jid in hung
                else f"the code crashed or hung the verifier: {reason}"
            )
            results[jid] = {
                "id": jid,
                "verdict": "could-not-run",
                "reason": why,
                "evidence": {"stderr_tail": outcome.get("stderr_tail", [])[-8:]},
                "seconds": None,
            }
        remaining = [job for job in pending if job["id"] not in results]
        if len(remaining) >= len(pending):  # no progress at all: stop rather than loop
            for job in remaining:
                results[job["id"]] = {
                    "id": job["id"],
                    "verdict": "could-not-run",
                    "reason": f"the verifier process failed: {reason}",
                    "evidence": {},
                    "seconds": None,
                }
            break
        pending = remaining
    return results, info


def _read_progress(path: str) -> tuple[dict[int, dict[str, Any]], list[int], dict[int, float]]:
    done: dict[int, dict[str, Any]] = {}
    started: list[int] = []
    hung: dict[int, float] = {}
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                try:
                    item = json.loads(line)
                except ValueError:
                    continue
                if "started" in item:
                    started.append(item["started"])
                elif "hung" in item:
                    hung[item["hung"]] = float(item.get("seconds") or 0)
                elif "result" in item:
                    done[item["result"]["id"]] = item["result"]
    except OSError:
        pass
    return done, started, hung


# --------------------------------------------------------------------------- text output


def _fmt_seconds(value: Any) -> str:
    if not isinstance(value, (int, float)):
        return "n/a"
    if value >= 1:
        return f"{value:.3f} s"
    if value >= 1e-3:
        return f"{value * 1e3:.3f} ms"
    return f"{value * 1e6:.1f} µs"


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


__all__ = [
    "handle_verify",
    "plan_captured",
    "register",
    "render_text",
    "run_jobs",
    "verify_file",
    "Path",
]
