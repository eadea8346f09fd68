"""`jaxlint verify PATH[::FUNCTION]`: confirm each finding by running the code with JAX.

The parent (this module, the driver, no JAX import) lints the file in-process with the file's
configuration, plans one job per finding (`verify.plan`: entry, inputs, fixed source; the job
schema is `jobs.Job`), and runs all jobs in ONE sandboxed child (`run.run_jobs` ->
`sandbox.run_isolated` -> `runtime.runner.worker`), then renders the report (`report`).
The child imports the module by path under a private name, so its `__main__` block never runs.
Jobs that need several devices (simulated with `--xla_force_host_platform_device_count` on CPU)
run in a second child. The captured run and the children fork from one server that imports JAX
once per file (`runtime.forkserver.forking`), started by the first of them that is needed. The child appends each result to a progress file; if it crashes or hangs,
the results it finished are kept, the job it was on becomes `could-not-run` with the reason, and
the rest run in a new child.

Verdicts: `confirmed` (the sharp bit happened, with evidence), `not-reproduced` (the code ran and it
did not happen with these inputs), `could-not-run` (and why). Exit 0 whenever it ran, 2 for usage
errors and when JAX is missing.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from jaxlint import api
from jaxlint.core.errors import UsageError
from jaxlint.runtime.toolbox.common import (
    add_format,
    add_limits,
    add_seed,
    add_static,
    check_specs,
    check_timeout,
    require_jax,
)
from jaxlint.verify.report import VERDICTS, finding_report, reconcile, render_text
from jaxlint.verify.run import DEFAULT_TIMEOUT, run_jobs

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
    add_static(parser, "keep")
    parser.add_argument(
        "--select", default=None, metavar="CODES", help="only verify these rule codes/prefixes"
    )
    parser.add_argument(
        "--preview",
        dest="preview",
        action="store_const",
        const=True,
        default=None,
        help="also verify the findings of the rules in preview, as `jaxlint check --preview` "
        "reports them (the setting: preview = true)",
    )
    parser.add_argument(
        "--no-preview",
        dest="preview",
        action="store_const",
        const=False,
        help="no preview rules, whatever the configuration says",
    )
    parser.add_argument(
        "--guess-inputs",
        action="store_true",
        help="fill parameters without inputs by name (key-like: key, n/i/size-like: 3, rate/p/lr-like: 0.5, else f32[8])",
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
    add_seed(parser)
    add_format(parser, "text")
    add_limits(parser, DEFAULT_TIMEOUT, "time limit per finding in seconds")
    parser.set_defaults(handler=handle_verify)


def handle_verify(args: argparse.Namespace) -> int:
    require_jax("verify")
    check_timeout(args.timeout)
    if args.memory_mb is not None and args.memory_mb <= 0:
        raise UsageError("--memory-mb must be positive")
    path, function = split_target(args.target)
    if args.args:
        check_specs(args.args, "--args", objects=True)
    static = tuple(s.strip() for s in (args.static or "").split(",") if s.strip())
    if args.capture_timeout is not None and args.capture_timeout <= 0:
        raise UsageError("--capture-timeout must be positive")
    report = verify_file(
        path,
        function=function,
        args=args.args,
        static=static,
        select=args.select,
        preview=args.preview,
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
    if os.path.isdir(path):
        raise UsageError(
            f"{path!r} is a folder; verify runs one file: PATH or PATH::FUNCTION"
            " (`jaxlint check` lints folders)"
        )
    if not os.path.isfile(path):
        raise UsageError(f"no such file: {path!r}")
    if path.endswith(".ipynb"):
        raise UsageError(
            f"{path!r} is a notebook; verify runs Python files: export it first"
            " (`jupyter nbconvert --to script`)"
        )
    if not path.endswith((".py", ".pyi")):
        raise UsageError(f"{path!r} is not a Python file (.py)")
    return path, function or None


# --------------------------------------------------------------------------- Python API


def lint_for_verify(
    path: str,
    text: str | Any,
    *,
    config: str | None = None,
    select: str | None = None,
    preview: bool | None = None,
) -> tuple[list[Any], Any]:
    """Lint `text` the way `jaxlint check` would for `path` (its config; `preview` as its
    `--preview` / `--no-preview`, None: the configuration's); returns (diags, settings)."""
    analysis, diags = _analyse(path, text, config=config, select=select, preview=preview)
    return diags, analysis.settings


def _analyse(
    path: str,
    text: str | Any,
    *,
    config: str | None,
    select: str | None,
    preview: bool | None = None,
) -> tuple[api.Analysis, list[Any]]:
    """The lint of `path` with its tree's project index (a key helper or a jitted caller in
    another module), so verify plans from the findings `jaxlint check` reports for the
    project, and from the same facts: (the analysis, its findings to verify)."""
    from jaxlint.core.config import ConfigResolver, parse_codes_arg

    overrides = {"preview": preview} if preview is not None else None
    settings = ConfigResolver(config, overrides).for_path(path)
    options = api.LintOptions(settings=settings, seeds=api.project_seeds(path, settings))
    analysis = api.analyse_text(text, path, options)
    diags = [d for d in analysis.diagnostics if d.code != "JAX000"]
    if select:
        prefixes = parse_codes_arg(select, "--select")
        diags = [d for d in diags if "ALL" in prefixes or d.code.startswith(prefixes)]
    return analysis, diags


def verify_file(
    path: str,
    *,
    function: str | None = None,
    args: str | None = None,
    static: Sequence[str] = (),
    select: str | None = None,
    preview: bool | None = None,
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
    from jaxlint.runtime.forkserver import forking

    analysis, diags, every = _findings_to_verify(
        path, function=function, args=args, config=config, select=select, preview=preview
    )
    # one JAX import for the captured run and every child (started by the first one needed)
    with forking():
        return _verify_analysed(
            path,
            analysis,
            diags,
            every,
            function=function,
            args=args,
            static=static,
            guess=guess,
            check_fixes=check_fixes,
            seed=seed,
            timeout=timeout,
            memory_mb=memory_mb,
            table=table,
            echo=echo,
            capture_main=capture_main,
            capture_cmd=capture_cmd,
            capture_timeout=capture_timeout,
            capture_calls=capture_calls,
        )


def _verify_analysed(
    path: str,
    analysis: api.Analysis,
    diags: list[Any],
    every: list[Any],
    *,
    function: str | None,
    args: str | None,
    static: Sequence[str],
    guess: bool,
    check_fixes: bool,
    seed: int,
    timeout: float,
    memory_mb: int | None,
    table: dict[str, Any] | None,
    echo: bool,
    capture_main: bool,
    capture_cmd: str | Sequence[str] | None,
    capture_timeout: float | None,
    capture_calls: int | None,
) -> dict[str, Any]:
    from jaxlint.verify.plan import InputOptions

    source, settings = analysis.source, analysis.settings
    capture_report = None
    captured: dict[str, dict[str, str | None]] = {}
    more_calls: dict[str, list[dict[str, str | None]]] = {}
    if capture_main or capture_cmd:
        capture_report, captured, more_calls = _capture(
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
        captured_more=more_calls,
        run_main=capture_main,
    )
    jobs = api.plan_verify(analysis, diags, options, with_fixes=check_fixes, context=every)
    for job in jobs:
        job["seed"] = seed
    started = time.perf_counter()
    results, env = run_jobs(jobs, timeout=timeout, memory_mb=memory_mb, echo=echo)
    findings = [finding_report(job, results.get(job["id"])) for job in jobs]
    reconcile(jobs, findings)
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


def _findings_to_verify(
    path: str,
    *,
    function: str | None,
    args: str | None,
    config: str | None,
    select: str | None,
    preview: bool | None = None,
) -> tuple[api.Analysis, list[Any], list[Any]]:
    """Read and lint `path`: (the analysis, the findings to verify, every finding); the tree
    is the lint's (parsed and indexed once).

    Warns about `[tool.jaxlint.verify]` entries that name no function of the file; with
    `function`, checks that it exists and takes the `--args` given, and keeps its findings."""
    from jaxlint.core.source import ReadError
    from jaxlint.files.read import read_source
    from jaxlint.verify.plan import function_of

    try:
        source = read_source(path)
    except ReadError as exc:
        raise UsageError(f"cannot read {path!r}: {exc}") from None
    analysis, diags = _analyse(path, source, config=config, select=select, preview=preview)
    settings = analysis.settings
    # the lint's tree; before 3.12 the lint also parses newer syntax, downgraded (core.parse),
    # which this Python cannot import: that stays the usage error it was
    tree = analysis.facts.tree if analysis.facts is not None else None
    if tree is None or sys.version_info < (3, 12):
        import ast

        try:
            parsed = ast.parse(source.text)
        except SyntaxError as exc:
            raise UsageError(f"cannot parse {path!r}: {exc}") from None
        tree = tree or parsed
    every = list(diags)
    from jaxlint.core.config import warn
    from jaxlint.verify.plan_inputs import unmatched_config_entries

    for message in unmatched_config_entries(settings, path, tree):
        warn(message)
    if function is not None:
        node = _check_function_exists(tree, function, path)
        _check_args_count(node, function, args)
        if analysis.facts is not None and analysis.facts.tree is tree:
            index = analysis.facts.index  # the lint's index: parent links built once
        else:
            from jaxlint.analysis.imports import ModuleIndex

            index = ModuleIndex(tree)
        diags = [d for d in diags if function_of(d, index, source) == function]
    return analysis, diags, every


def plan_captured(
    path: str,
    *,
    main: bool = True,
    command: str | Sequence[str] | None = None,
    check_fixes: bool = True,
    config: str | None = None,
    select: str | None = None,
    capture_timeout: float | None = None,
    preview: bool | None = None,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Lint `path`, capture real inputs from its `__main__` block (or `command`) and plan its jobs;
    returns (jobs, capture report). For batches: `verify_jobs([jobs, ...])` runs many files'
    jobs in one subprocess."""
    from jaxlint.files.read import read_source
    from jaxlint.verify.plan import InputOptions

    source = read_source(path)
    analysis, diags = _analyse(path, source, config=config, select=select, preview=preview)
    settings = analysis.settings
    report, captured, more_calls = _capture(
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
    inputs = InputOptions(
        captured=captured, captured_more=more_calls, run_main=main and command is None
    )
    jobs = api.plan_verify(analysis, diags, inputs, with_fixes=check_fixes)
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
) -> tuple[dict[str, Any], dict[str, dict[str, str | None]], dict[str, list[dict[str, Any]]]]:
    """Run the program once, recording the inputs of every function an entry could start from:
    (the capture report, each function's first call, its later distinct calls)."""
    from jaxlint.rules import rules_by_code
    from jaxlint.runtime.capture import (
        DEFAULT_CAPTURE_TIMEOUT,
        DEFAULT_MAX_CALLS,
        captured_calls,
        captured_inputs,
        run_capture,
        signature_text,
    )
    from jaxlint.verify.plan import capture_targets, kinds_for

    rules = rules_by_code()  # a finding no verifier checks needs no inputs: no run for it
    diags = [d for d in diags if kinds_for(rules.get(d.code))]
    targets = capture_targets(path, source, diags, settings)
    if not targets:
        return {"ok": False, "reason": "no finding to capture inputs for", "functions": {}}, {}, {}
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
    calls = captured_calls(outcome["functions"])
    return (
        report,
        captured_inputs(outcome["functions"]),
        {q: c[1:] for q, c in calls.items() if len(c) > 1},
    )


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
    from jaxlint.core.config import Settings
    from jaxlint.verify.plan import InputOptions

    settings = settings or Settings()
    options = api.LintOptions(settings=settings, codes=frozenset(codes) if codes else None)
    analysis = api.analyse_text(text, path, options)
    diags = [d for d in analysis.diagnostics if d.code != "JAX000"]
    return api.plan_verify(analysis, diags, inputs or InputOptions(), with_fixes=check_fixes)


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
    mine: list[list[dict[str, Any]]] = [[] for _ in batches]
    for b, job in owners:
        out[b].append(finding_report(job, results.get(job["id"])))
        mine[b].append(job)
    for b, findings in enumerate(out):
        reconcile(mine[b], findings)
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

    from jaxlint.runtime.toolbox.inputs import split_items

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


__all__ = [
    "handle_verify",
    "plan_captured",
    "register",
    "render_text",
    "run_jobs",
    "verify_file",
    "Path",
]
