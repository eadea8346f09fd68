"""The static subcommands: `check` (lint and fix), `rules` and `explain`."""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
from collections.abc import Sequence

from jaxlint.config import ConfigResolver, Settings, parse_codes_arg
from jaxlint.diagnostic import Diagnostic
from jaxlint.engine import LintOptions, internal_error, iter_python_files, lint_text
from jaxlint.errors import UsageError
from jaxlint.integrations.formats import FORMATS, RENDERERS, render_statistics


def register(sub: argparse._SubParsersAction) -> None:
    check = sub.add_parser(
        "check",
        help="lint files (the default command)",
        description="Lint Python files and notebooks for JAX sharp bits; optionally fix them.",
    )
    check.add_argument(
        "paths", nargs="*", metavar="PATH", help="files or folders (default: .); - reads stdin"
    )
    check.add_argument(
        "--select",
        help="rule codes or prefixes to enable (replaces the default set); ALL for every rule",
    )
    check.add_argument("--extend-select", help="rule codes or prefixes to add to the selection")
    check.add_argument("--ignore", help="rule codes or prefixes to disable")
    check.add_argument("--extend-ignore", help=argparse.SUPPRESS)
    check.add_argument("--exclude", action="append", default=[], help="extra glob of paths to skip")
    check.add_argument(
        "--jit-decorator",
        action="append",
        default=[],
        dest="jit_decorators",
        help="extra decorator treated like jax.jit (e.g. mylib.compiled)",
    )
    check.add_argument(
        "--format", "--output-format", dest="format", choices=FORMATS, default="text"
    )
    check.add_argument("--fix", action="store_true", help="apply safe fixes")
    check.add_argument(
        "--unsafe-fixes", action="store_true", help="also apply unsafe fixes (with --fix or --diff)"
    )
    check.add_argument(
        "--diff", action="store_true", help="print the fixes as a unified diff; write nothing"
    )
    check.add_argument("--show-fixes", action="store_true", help="list the fixes that were applied")
    check.add_argument(
        "--exit-zero", action="store_true", help="exit 0 even when there are findings"
    )
    check.add_argument("--statistics", action="store_true", help="count findings per rule")
    check.add_argument(
        "--config", help="a pyproject.toml (or TOML file) to use instead of discovery"
    )
    check.add_argument("--stdin-filename", help="the name to report for stdin (with PATH -)")
    check.add_argument(
        "--no-cache", action="store_true", help="do not read or write the result cache"
    )
    check.add_argument(
        "--no-project-index",
        action="store_true",
        help="do not trace helpers across modules (no project index)",
    )
    check.add_argument("--cache-dir", help="where the result cache lives (default .jaxlint_cache)")
    check.add_argument(
        "--jobs", "-j", type=int, default=None, help="worker processes (default: all cores)"
    )
    check.add_argument(
        "--verbose", "-v", action="store_true", help="tracebacks for internal errors"
    )
    check.add_argument("--quiet", "-q", action="store_true", help="print findings only, no summary")
    check.set_defaults(handler=run_check)

    rules = sub.add_parser("rules", help="list the rules", description="List every rule.")
    rules.add_argument("--format", choices=("text", "json"), default="text")
    rules.add_argument(
        "--all", action="store_true", help="(kept for compatibility) list opt-in rules too"
    )
    rules.set_defaults(handler=run_rules)

    explain = sub.add_parser("explain", help="show a rule's documentation")
    explain.add_argument(
        "code", help="rule code (JAX101) or name (host-conversion-of-traced-value)"
    )
    explain.set_defaults(handler=run_explain)


# -- check ------------------------------------------------------------------------------


def _resolver(args: argparse.Namespace) -> ConfigResolver:
    overrides = {
        "select": parse_codes_arg(args.select, "--select"),
        "extend_select": parse_codes_arg(args.extend_select, "--extend-select"),
        "ignore": parse_codes_arg(args.ignore, "--ignore")
        + parse_codes_arg(args.extend_ignore, "--extend-ignore"),
        "exclude": tuple(args.exclude),
        "jit_decorators": tuple(args.jit_decorators),
    }
    return ConfigResolver(args.config, overrides)


def _options(settings: Settings, args: argparse.Namespace) -> LintOptions:
    return LintOptions(settings=settings, verbose=args.verbose)


def run_check(args: argparse.Namespace) -> int:
    if args.stdin_filename and not args.paths:
        args.paths = ["-"]
    paths = args.paths or ["."]
    resolver = _resolver(args)
    fixing = args.fix or args.diff
    diags: list[Diagnostic] = []
    sources: dict[str, list[str]] = {}
    summary = FixSummary()

    if paths == ["-"]:
        name = args.stdin_filename or "<stdin>"
        data = sys.stdin.buffer.read()
        settings = resolver.for_path(name if name != "<stdin>" else os.getcwd())
        diags = _check_stdin(data, name, settings, args, summary)
        return _finish(diags, sources, args, summary)

    for p in paths:
        if p == "-":
            raise UsageError("`-` (stdin) cannot be combined with other paths")
        if not os.path.lexists(p):
            raise UsageError(f"{p}: no such file or directory")
    files = iter_python_files(paths, resolver.for_path)
    if fixing:
        from jaxlint.parallel import Salts, fix_file_cached, open_cache, project_index_for

        fix_cache, salts = open_cache(args, resolver), Salts()  # files with nothing to fix: hits
        project = project_index_for(files, resolver, args, fix_cache)
        for path, display in files:
            options = _options(resolver.for_path(path), args)
            if project is not None:
                options.seeds = project.seeds_for(path) or None
            result = fix_file_cached(
                fix_cache,
                path,
                display,
                options,
                unsafe=args.unsafe_fixes,
                write=args.fix and not args.diff,
                salts=salts,
            )
            summary.add(result, display)
            if args.diff and result.diff:
                sys.stdout.write(result.diff)
            diags.extend(result.remaining)
    else:
        from jaxlint.parallel import lint_files

        diags = lint_files(files, resolver, args)
    if args.format in ("text", "full") and not args.diff:
        for d in diags:
            if d.path not in sources and d.cell is None:
                sources[d.path] = _read_lines(d.path)
    return _finish(diags, sources, args, summary)


def _read_lines(path: str) -> list[str]:
    from jaxlint.engine import read_source

    try:
        return read_source(path).text.splitlines()
    except Exception:
        return []


def _check_stdin(
    data: bytes, name: str, settings: Settings, args: argparse.Namespace, summary: FixSummary
) -> list[Diagnostic]:
    from jaxlint.engine import fix_text
    from jaxlint.source import ReadError, decode_source

    options = _options(settings, args)
    try:
        source = decode_source(data)
    except ReadError as exc:
        return [internal_error(name, f"could not read stdin: {exc}")]
    if name.endswith(".py") and os.path.isfile(name) and not args.no_project_index:
        from jaxlint.project_index import index_for_file

        options.seeds = index_for_file(name, settings).seeds_for(name) or None
    if args.fix or args.diff:
        result = fix_text(source, name, options, unsafe=args.unsafe_fixes)
        if args.diff:
            diff = "".join(
                difflib.unified_diff(
                    source.text.splitlines(keepends=True),
                    result.text.splitlines(keepends=True),
                    fromfile=name,
                    tofile=name,
                )
            )
            sys.stdout.write(diff)
            summary.changed_files += bool(diff)
        else:
            sys.stdout.buffer.write(source.encode(result.text))  # like ruff: fixed code to stdout
            summary.quiet_output = True
        summary.fixed += len(result.fixed)
        return result.remaining
    return lint_text(source, name, options)


class FixSummary:
    def __init__(self) -> None:
        self.fixed = 0
        self.fixed_files = 0
        self.changed_files = 0
        self.failed: list[Diagnostic] = []
        self.applied: list[Diagnostic] = []
        self.quiet_output = False

    def add(self, result, display: str) -> None:  # noqa: ANN001
        self.fixed += len(result.fixed)
        self.applied.extend(result.fixed)
        self.failed.extend(result.failed)
        if result.fixed:
            self.fixed_files += 1
        if result.diff:
            self.changed_files += 1


def _finish(
    diags: list[Diagnostic], sources: dict, args: argparse.Namespace, summary: FixSummary
) -> int:
    diags = sorted(diags, key=Diagnostic.sort_key)
    out = sys.stdout
    fixing = args.fix or args.diff
    if summary.quiet_output:
        out = sys.stderr
    if args.diff:
        pass  # the diff is the output
    elif args.statistics:
        out.write(render_statistics(diags))
    else:
        out.write(RENDERERS[args.format](diags, unsafe=args.unsafe_fixes, sources=sources))
    if args.format in ("text", "full", "concise") and not args.quiet:
        err = sys.stderr if (args.diff or summary.quiet_output) else out
        if args.show_fixes and summary.applied:
            err.write("\nFixed:\n")
            for d in summary.applied:
                err.write(f"  {d.path}:{d.line}: {d.code} {d.fix.message or d.message}\n")  # type: ignore[union-attr]
        for d in summary.failed:
            err.write(
                f"jaxlint: warning: {d.path}:{d.line}: the {d.code} fix would not parse; not applied (please report)\n"
            )
        err.write(_summary_line(diags, summary, args))
    if args.exit_zero:
        return 0
    if args.diff:
        return 1 if summary.changed_files else (1 if diags and not fixing else 0)
    return 1 if diags else 0


def _summary_line(diags: list[Diagnostic], summary: FixSummary, args: argparse.Namespace) -> str:
    n = len(diags)
    safe = sum(1 for d in diags if d.fix is not None and d.fix.safety == "safe")
    unsafe = sum(1 for d in diags if d.fix is not None and d.fix.safety == "unsafe")
    if args.fix or args.diff:
        verb = "Would fix" if args.diff else "Fixed"
        s = f"{verb} {summary.fixed} finding{'s' if summary.fixed != 1 else ''}"
        if not args.diff:
            s += f" in {summary.fixed_files} file{'s' if summary.fixed_files != 1 else ''}"
        s += f"; {n} remaining"
        if unsafe and not args.unsafe_fixes:
            s += f", {unsafe} with unsafe fixes (use --unsafe-fixes)"
        return s + ".\n"
    if n == 0:
        return "All checks passed!\n"
    s = f"Found {n} finding{'s' if n != 1 else ''}."
    if safe:
        s += f"\n[*] {safe} fixable with `jaxlint check --fix`."
    if unsafe:
        s += f"\n{unsafe} more with `--unsafe-fixes`."
    return s + "\n"


# -- rules / explain ------------------------------------------------------------------------


def _rule_rows() -> list[dict]:
    from jaxlint.rules import ALL_RULES

    return [
        {
            "code": r.code,
            "name": r.name,
            "default": r.default,
            "fix": r.fix_safety or "none",
            "verifier": r.verifier or "none",
            "tier": r.tier,
            "summary": r.summary(),
            "templates": list(r.templates),
        }
        for r in ALL_RULES
    ]


def run_rules(args: argparse.Namespace) -> int:
    rows = _rule_rows()
    if args.format == "json":
        sys.stdout.write(json.dumps(rows, indent=2) + "\n")
        return 0
    headers = ("code", "name", "default", "fix", "verifier")
    table = [
        (r["code"], r["name"], "on" if r["default"] else "opt-in", r["fix"], r["verifier"])
        for r in rows
    ]
    widths = [max(len(h), *(len(t[i]) for t in table)) for i, h in enumerate(headers)]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths))
    sys.stdout.write(line.rstrip() + "\n")
    sys.stdout.write("  ".join("-" * w for w in widths) + "\n")
    for t in table:
        sys.stdout.write("  ".join(c.ljust(w) for c, w in zip(t, widths)).rstrip() + "\n")
    return 0


def explain_text(code: str) -> str:
    from jaxlint.rules import get_rule

    rule = get_rule(code)
    if rule is None:
        raise UsageError(f"unknown rule `{code}` (see `jaxlint rules`)")
    header = f"{rule.code} ({rule.name})"
    meta = [
        f"Default: {'on' if rule.default else 'opt-in (enable with --extend-select ' + rule.code + ')'}",
        f"Fix: {rule.fix_safety or 'none'}",
        f"Verifier: {rule.verifier or 'none'} (`jaxlint verify FILE` confirms findings with JAX)",
    ]
    if rule.templates:
        meta.append(
            "Template: "
            + ", ".join(f"`jaxlint template {t}`" for t in rule.templates)
            + " shows the idiomatic fix"
        )
    return f"{header}\n{'=' * len(header)}\n\n{rule.docs()}\n\n" + "\n".join(meta) + "\n"


def run_explain(args: argparse.Namespace) -> int:
    sys.stdout.write(explain_text(args.code))
    return 0


def main(argv: Sequence[str] | None = None) -> int:  # pragma: no cover - convenience
    from jaxlint.cli import main as cli_main

    return cli_main(argv)
