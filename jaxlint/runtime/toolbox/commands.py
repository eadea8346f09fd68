"""The JAX toolbox subcommands: `env`, `probe`, `bench`, `recompile`, `locate`.

Each handler validates its arguments here (no JAX import), then runs the JAX work in the sandbox
(`sandbox.run_isolated`), so a user module that hangs, crashes or eats memory ends the child, not
the CLI. JSON goes to stdout by default (`--format text` for people); a failed run prints a JSON
object with `ok: false` and its reason, a one-line message on stderr, and exits 1. Usage errors and
missing JAX exit 2 through `jaxlint.core.errors`.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jaxlint.api import TOOL_TIMEOUT, SandboxFailed, function_ref, run_sandboxed
from jaxlint.core.errors import UsageError
from jaxlint.runtime.toolbox.common import (
    add_format,
    add_limits,
    add_seed,
    check_specs,
    check_timeout,
    format_seconds,
    require_jax,
)

DEFAULT_TIMEOUT = TOOL_TIMEOUT
# the sandboxed run did not produce a result (timeout, crash, exception in user code)
ToolFailed = SandboxFailed


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the toolbox subcommands (and `verify`, when its module provides `register`)."""
    for command in _COMMANDS:
        parser = subparsers.add_parser(
            command.name, help=command.help, description=command.description
        )
        if command.function:
            _add_function(parser)
        for flags, options in command.options:
            parser.add_argument(*flags, **options)
        _add_common(parser, sandboxed=command.sandboxed)
        parser.set_defaults(handler=command.handler)
    _register_optional(subparsers, "jaxlint.verify.driver", "verify")


def _register_optional(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser], module_name: str, command: str
) -> None:
    if command in subparsers.choices:
        return
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            return
        raise
    if hasattr(module, "register"):
        module.register(subparsers)


# --------------------------------------------------------------------------- shared plumbing

Option = tuple[tuple[str, ...], dict[str, Any]]


def _option(*flags: str, **options: Any) -> Option:
    """One `add_argument` call, as data for the command table."""
    return flags, options


@dataclass(frozen=True)
class _Command:
    """One toolbox subcommand: its parser (built by `register`) and its handler."""

    name: str
    help: str
    description: str
    handler: Callable[[argparse.Namespace], int]
    options: tuple[Option, ...] = ()
    function: bool = True  # takes PATH::FUNC [NAME] and --seed first
    sandboxed: bool = True  # runs JAX in the sandbox: --timeout and --memory-mb


def _add_common(parser: argparse.ArgumentParser, sandboxed: bool = True) -> None:
    add_format(parser, "json")
    if sandboxed:
        add_limits(parser, DEFAULT_TIMEOUT, "kill the JAX subprocess after S seconds")


def _add_function(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "function", metavar="PATH::FUNC", help="file and function, e.g. model.py::loss"
    )
    parser.add_argument(
        "name",
        nargs="?",
        default=None,
        metavar="NAME",
        help="function name when PATH has no ::NAME",
    )
    add_seed(parser)


def _function_ref(ref: str, name: str | None) -> str:
    """Validate `PATH::FUNC` here, without importing user code; return the canonical form."""
    return function_ref(ref, name)


def _run(
    target: str, payload: dict[str, Any], args: argparse.Namespace, echo: bool = False
) -> dict[str, Any]:
    """`api.run_sandboxed` with the command's --timeout and --memory-mb."""
    return run_sandboxed(target, payload, args.timeout, args.memory_mb, echo=echo)


def _run_tool(
    command: str, payload: dict[str, Any], args: argparse.Namespace, echo: bool = False
) -> dict[str, Any] | None:
    """Run `toolbox.<command>:run` on PATH::FUNC in the sandbox: its result, named the way the
    user spelled the function, or None once a failed run has been reported (exit 1)."""
    shown = _shown(args.function, args.name)
    try:
        result = _run(f"jaxlint.runtime.toolbox.{command}:run", payload, args, echo=echo)
    except ToolFailed as exc:
        _fail(command, exc.outcome, shown, args.format)
        return None
    result["function"] = shown
    return result


def _fail(command: str, outcome: dict[str, Any], function: str | None, fmt: str = "json") -> int:
    error = outcome.get("error") or {}
    report = {
        "function": function,
        "ok": False,
        "reason": outcome.get("reason"),
        "error": {"type": error.get("type"), "message": error.get("message")} if error else None,
        "stderr_tail": outcome.get("stderr_tail", [])[-15:],
    }
    if fmt == "json":
        print(json.dumps(report, indent=2))
    # one line on stderr (docs/toolbox.md); the traceback is in the JSON's stderr_tail
    print(f"jaxlint {command}: {outcome.get('reason')}", file=sys.stderr)
    return 1


def _shown(ref: str, name: str | None) -> str:
    """The function as the user spelled it (the child gets the resolved path)."""
    return f"{ref}::{name}" if name and "::" not in ref else ref


def _emit(result: dict[str, Any], fmt: str, render_text: Any) -> int:
    if fmt == "text":
        print(render_text(result))
    else:
        print(json.dumps(result, indent=2, default=str))
    return 0


def _format_bytes(value: float | None) -> str:
    if value is None:
        return "n/a"
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(value) < 1024 or unit == "GiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return str(value)


# --------------------------------------------------------------------------- env


def handle_env(args: argparse.Namespace) -> int:
    """`jaxlint env`: works (exit 0) without JAX too, with `jax: null` and a warning."""
    from jaxlint.runtime.toolbox.env import collect_env

    check_timeout(args.timeout)
    return _emit(
        collect_env(smoke_test=args.smoke_test, timeout=args.timeout), args.format, render_env
    )


def render_env(report: dict[str, Any]) -> str:
    lines = [
        f"python    {report['python']} ({report['platform']})",
        f"jax       {report['jax']}   jaxlib {report['jaxlib']}   numpy {report['numpy']}   "
        f"libcst {report['libcst']}   jaxlint {report['jaxlint']}",
        f"backend   {report['backend']}   devices {report['device_count']}   processes {report['process_count']}",
    ]
    for device in report.get("devices", [])[:16]:
        memory = device.get("memory") or {}
        extra = f"  {_format_bytes(memory['bytes_limit'])} limit" if "bytes_limit" in memory else ""
        lines.append(f"  - {device['platform']}:{device['id']} {device['device_kind']}{extra}")
    if report.get("packages"):
        lines.append("packages  " + ", ".join(f"{k} {v}" for k, v in report["packages"].items()))
    if report.get("config"):
        lines.append("config    " + ", ".join(f"{k}={v}" for k, v in report["config"].items()))
    for name, value in report.get("env", {}).items():
        lines.append(f"env       {name}={value}")
    smoke = report.get("smoke_test")
    if smoke:
        lines.append(
            f"smoke     {'ok' if smoke.get('ok') else 'FAILED'}: compile {format_seconds(smoke.get('compile_seconds'))}, "
            f"run {format_seconds(smoke.get('run_seconds'))} (median)"
        )
    lines += [f"warning   {w}" for w in report.get("warnings", [])]
    return "\n".join(lines)


# --------------------------------------------------------------------------- probe


def handle_probe(args: argparse.Namespace) -> int:
    from jaxlint.runtime.toolbox.probe import BIG_TEXT_KEYS

    require_jax("probe")
    function = _function_ref(args.function, args.name)
    payload = {
        "function": function,
        "args": check_specs(args.args, "--args"),
        "static": args.static,
        "donate": args.donate,
        "seed": args.seed,
    }
    result = _run_tool("probe", payload, args)
    if result is None:
        return 1
    summary = {k: v for k, v in result.items() if k not in BIG_TEXT_KEYS}
    if args.out:
        out = Path(args.out)
        try:
            out.mkdir(parents=True, exist_ok=True)
            files = {"jaxpr.txt": "jaxpr", "stablehlo.mlir": "stablehlo", "hlo.txt": "hlo"}
            for name, key in files.items():
                (out / name).write_text(result.get(key) or "", encoding="utf-8")
            (out / "summary.json").write_text(
                json.dumps(summary, indent=2, default=str) + "\n", encoding="utf-8"
            )
        except OSError as exc:
            raise UsageError(f"--out {args.out!r}: {exc.strerror or exc}") from None
        written = [str(out / name) for name in (*files, "summary.json")]
        result["written"] = written
        summary["written"] = written
    return _emit(summary if args.brief else result, args.format, render_probe)


def render_probe(result: dict[str, Any]) -> str:
    cost = result.get("cost_analysis") or {}
    memory = result.get("memory_analysis") or {}
    donation = result.get("donation") or {}
    lines = [
        f"{result['function']}({', '.join(result.get('args', []))})",
        f"  output        {json.dumps(result.get('eval_shape'))}",
        f"  jaxpr         {result.get('jaxpr_eqns')} equations ({result.get('jaxpr_eqns_total')} with nested)",
        f"  trace/lower/compile  {format_seconds(result.get('trace_seconds'))} / "
        f"{format_seconds(result.get('lower_seconds'))} / {format_seconds(result.get('compile_seconds'))}",
        f"  cost          flops {cost.get('flops', 'n/a')}, bytes accessed {cost.get('bytes accessed', 'n/a')}",
        "  memory        "
        + ", ".join(
            f"{k.replace('_bytes', '')} {_format_bytes(v)}"
            for k, v in memory.items()
            if v and not k.startswith("host")
        ),
        f"  donation      requested {donation.get('requested') or []}, aliased {donation.get('aliased') or []}",
        f"  host callbacks {'yes ' + str(result.get('host_callback_primitives')) if result.get('host_callbacks') else 'no'}",
    ]
    lines += [f"  warning       {w}" for w in result.get("warnings", [])]
    if result.get("written"):
        lines.append(f"  wrote         {', '.join(result['written'])}")
    if result.get("jaxpr"):
        lines += ["", result["jaxpr"]]
    return "\n".join(lines)


# --------------------------------------------------------------------------- bench


def handle_bench(args: argparse.Namespace) -> int:
    require_jax("bench")
    if args.repeat < 1:
        raise UsageError("--repeat must be at least 1")
    if args.warmup < 0:
        raise UsageError("--warmup must not be negative")
    function = _function_ref(args.function, args.name)
    compare = _function_ref(args.compare, None) if args.compare else None
    progress = sys.stderr.isatty()
    payload = {
        "function": function,
        "compare": compare,
        "args": check_specs(args.args, "--args"),
        "repeat": args.repeat,
        "warmup": args.warmup,
        "static": args.static,
        "donate": args.donate,
        "jit": not args.no_jit,
        "seed": args.seed,
        "progress": progress,
    }
    result = _run_tool("bench", payload, args, echo=progress)
    if result is None:
        return 1
    if compare:
        result["compare"]["function"] = args.compare
    return _emit(result, args.format, render_bench)


def _bench_lines(result: dict[str, Any], indent: str = "  ") -> list[str]:
    return [
        f"{indent}median {format_seconds(result.get('median_seconds'))}  "
        f"(min {format_seconds(result.get('min_seconds'))}, max {format_seconds(result.get('max_seconds'))}, "
        f"IQR {format_seconds(result.get('iqr_seconds'))}) over {result.get('runs')} blocked runs",
        f"{indent}trace {format_seconds(result.get('trace_seconds'))}, lower {format_seconds(result.get('lower_seconds'))}, "
        f"compile {format_seconds(result.get('compile_seconds'))}, first call {format_seconds(result.get('first_call_seconds'))}",
    ]


def render_bench(result: dict[str, Any]) -> str:
    lines = [f"{result['function']}  on {result.get('device')}  jit={result.get('jit')}"]
    lines += _bench_lines(result)
    lines.append(f"  input transfer {format_seconds(result.get('transfer_seconds'))}")
    compare = result.get("compare")
    if compare:
        lines.append(compare["function"])
        lines += _bench_lines(compare)
        speedup = result.get("speedup")
        lines.append(
            f"speedup {speedup:.2f}x (ratio {result.get('ratio'):.3f}); outputs match: {result.get('outputs_match')}"
            if speedup
            else "speedup n/a"
        )
    return "\n".join(lines)


# --------------------------------------------------------------------------- recompile


def handle_recompile(args: argparse.Namespace) -> int:
    require_jax("recompile")
    function = _function_ref(args.function, args.name)
    cases = [check_specs(case, f"--case {i + 1}") for i, case in enumerate(args.case)]
    payload = {"function": function, "cases": cases, "static": args.static, "seed": args.seed}
    result = _run_tool("recompile", payload, args)
    if result is None:
        return 1
    code = _emit(result, args.format, render_recompile)
    failed = [i for i, case in enumerate(result.get("cases", []), 1) if case.get("error")]
    if failed:  # the user's function failed: exit 1, as the other tools (docs/toolbox.md)
        first = result["cases"][failed[0] - 1]["error"]
        print(
            f"jaxlint recompile: {result['function']} failed in case "
            f"{', '.join(map(str, failed))}: {' '.join(str(first).split())[:300]}",
            file=sys.stderr,
        )
        return 1
    return code


def render_recompile(result: dict[str, Any]) -> str:
    lines = [
        f"{result['function']}: {result['compiles']} compile(s) for {len(result['cases'])} case(s)"
    ]
    for i, case in enumerate(result["cases"], 1):
        status = "error" if case.get("error") else ("COMPILED" if case["compiled"] else "cached")
        lines.append(f"  {i}. {case['args']:<30} {status:<9} {format_seconds(case['seconds'])}")
        for reason_line in (case.get("miss_reason") or "").splitlines():
            lines.append(f"       {reason_line}")
        if case.get("error"):
            lines.append(f"       {case['error']}")
    lines += [f"  warning: {w}" for w in result.get("warnings", [])]
    return "\n".join(lines)


# --------------------------------------------------------------------------- locate


def handle_locate(args: argparse.Namespace) -> int:
    from jaxlint.runtime.toolbox.locate import locate

    result = locate(
        " ".join(args.topic),
        root=args.root,
        kind=args.kind,
        limit=args.limit,
        use_cache=not args.no_cache,
    )
    return _emit(result, args.format, render_locate)


def render_locate(result: dict[str, Any]) -> str:
    lines = [f"{result['topic']!r} in {result['root']} ({result['files_indexed']} files)"]
    if not result["results"]:
        lines.append("  no matches")
    for item in result["results"]:
        lines.append(f"{item['path']}:{item['line']}  [{item['kind']}] {item['score']}")
        if item["snippet"]:
            lines.append(f"    {item['snippet']}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- the commands

_STATIC = _option(
    "--static", default=None, metavar="NAMES", help="comma-separated parameters to mark static"
)
_DONATE = _option(
    "--donate", default=None, metavar="NAMES", help="comma-separated parameters to donate"
)

# in `jaxlint --help` order; each parser gets PATH::FUNC first (`function`), then `options`, then
# --format (and the sandbox limits)
_COMMANDS = (
    _Command(
        "env",
        help="versions, backend, devices, config and suspicious settings (for bug reports)",
        description="Report the JAX environment: versions, backend, devices, config, relevant "
        "environment variables and warnings about settings that do not do what they seem to.",
        handler=handle_env,
        options=(
            _option("--smoke-test", action="store_true", help="also jit and time a small matmul"),
        ),
        function=False,
    ),
    _Command(
        "probe",
        help="shapes, jaxpr, StableHLO, HLO, cost and memory analysis of one function",
        description="Trace, lower and compile PATH::FUNC on example inputs (nothing is executed) "
        "and report output shapes, jaxpr, StableHLO, compiled HLO, XLA cost and memory analysis, "
        "donation aliasing and host callbacks.",
        handler=handle_probe,
        options=(
            _option(
                "--args",
                required=True,
                metavar="SPEC",
                help='example inputs, e.g. "f32[8,128], i32[], key, 3"',
            ),
            _STATIC,
            _DONATE,
            _option(
                "--out",
                default=None,
                metavar="DIR",
                help="write jaxpr.txt, stablehlo.mlir, hlo.txt, summary.json",
            ),
            _option(
                "--brief",
                action="store_true",
                help="leave the jaxpr/StableHLO/HLO texts out of stdout",
            ),
        ),
    ),
    _Command(
        "bench",
        help="honest benchmark: transfer, trace, lower, compile and blocked steady-state timings",
        description="Benchmark PATH::FUNC: input transfer, trace, lower and compile are timed "
        "separately; then a first call, warm-up calls and N runs each ended by "
        "jax.block_until_ready. --compare runs a second function alternately on the same inputs.",
        handler=handle_bench,
        options=(
            _option(
                "--args", required=True, metavar="SPEC", help='example inputs, e.g. "f32[512,512]"'
            ),
            _option("--repeat", type=int, default=20, metavar="N", help="timed runs (default: 20)"),
            _option(
                "--warmup",
                type=int,
                default=3,
                metavar="N",
                help="untimed warm-up runs (default: 3)",
            ),
            _STATIC,
            _DONATE,
            _option("--no-jit", action="store_true", help="call the function as is (op by op)"),
            _option(
                "--compare",
                default=None,
                metavar="PATH::FUNC",
                help="a second function to run alternately",
            ),
        ),
    ),
    _Command(
        "recompile",
        help="count compiles across input cases through one jitted wrapper, with JAX's miss reasons",
        description="Run each --case through ONE jax.jit wrapper (after jax.clear_caches()) and "
        "report which cases compiled, JAX's explanation of each cache miss, the distinct "
        "signatures, and warnings (weak-type flips, dtype drift, shape or static-value changes).",
        handler=handle_recompile,
        options=(
            _option(
                "--case",
                action="append",
                required=True,
                metavar="SPEC",
                help='one call\'s inputs, e.g. --case "f32[4]" --case "f32[8]" (repeat the option)',
            ),
            _STATIC,
        ),
    ),
    _Command(
        "locate",
        help="find JAX docs, tests and source about a topic (offline, cached index)",
        description="Search a JAX checkout (--root) or the installed jax package for docs, tests "
        "and source files about TOPIC (e.g. shard_map, 'key reuse', 'transfer guard').",
        handler=handle_locate,
        options=(
            _option("topic", nargs="+", metavar="TOPIC", help="words to search for"),
            _option(
                "--root",
                default=None,
                metavar="DIR",
                help="a JAX checkout (default: the installed jax package)",
            ),
            _option(
                "--kind",
                choices=("doc", "test", "source"),
                default=None,
                help="only this kind of file",
            ),
            _option(
                "--limit", type=int, default=10, metavar="N", help="number of results (default: 10)"
            ),
            _option(
                "--no-cache", action="store_true", help="neither read nor write the index cache"
            ),
        ),
        function=False,
        sandboxed=False,
    ),
)
