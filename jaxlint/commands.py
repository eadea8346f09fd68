"""The static subcommands: `check` (lint and fix), `rules` and `explain`.

The CLI face: it parses flags, calls `jaxlint.api` (which lints, fixes, builds the project
index and explains) and renders what comes back; it runs no layer below the facade itself.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
from collections.abc import Sequence

from jaxlint import api
from jaxlint.api import LintOptions
from jaxlint.core.config import ConfigResolver, Settings, parse_codes_arg
from jaxlint.core.diagnostic import Diagnostic, internal_error
from jaxlint.core.errors import UsageError
from jaxlint.integrations.formats import FORMATS, RENDERERS, render_statistics
from jaxlint.run import notices


def _jobs(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {value!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {n}")
    return n


def register(sub: argparse._SubParsersAction) -> None:
    check = sub.add_parser(
        "check",
        help="lint files (the default command)",
        description="Lint Python files and notebooks for JAX sharp bits; optionally fix them.",
    )
    _add_selection_arguments(check)
    _add_fix_and_output_arguments(check)
    _add_input_arguments(check)
    _add_run_arguments(check)
    check.set_defaults(handler=run_check)

    rules = sub.add_parser("rules", help="list the rules", description="List every rule.")
    rules.add_argument("--format", choices=("text", "json"), default="text")
    rules.add_argument(
        "--all",
        action="store_true",
        help="no effect: every rule, opt-in ones included, is always listed",
    )
    rules.set_defaults(handler=run_rules)

    explain = sub.add_parser("explain", help="show a rule's documentation")
    explain.add_argument(
        "code", help="rule code (JAX101) or name (host-conversion-of-traced-value)"
    )
    explain.set_defaults(handler=run_explain)


def _add_selection_arguments(check: argparse.ArgumentParser) -> None:
    """What to lint: paths, rule selection, excludes, extra jit decorators."""
    check.add_argument(
        "paths", nargs="*", metavar="PATH", help="files or folders (default: .); - reads stdin"
    )
    check.add_argument(
        "--select",
        metavar="CODES",
        help="rule codes or prefixes to enable; replaces the configuration's select and "
        "extend-select; ALL for every rule",
    )
    check.add_argument(
        "--extend-select", metavar="CODES", help="rule codes or prefixes to add to the selection"
    )
    check.add_argument(
        "--ignore", metavar="CODES", help="rule codes or prefixes to disable (ALL for every rule)"
    )
    check.add_argument(
        "--extend-ignore", metavar="CODES", help="the same as --ignore (flake8 spelling)"
    )
    check.add_argument(
        "--preview",
        dest="preview",
        action="store_const",
        const=True,
        default=None,
        help="also run the rules (and confidence levels) in preview, as ruff's --preview; "
        "`jaxlint rules` shows which (the setting: preview = true)",
    )
    check.add_argument(
        "--no-preview",
        dest="preview",
        action="store_const",
        const=False,
        help="no preview rules, whatever the configuration says",
    )
    check.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="PATTERN",
        help="a folder/file name (at any depth) or a glob to skip, besides the configured and "
        "default excludes; ./x and absolute paths are paths from here; repeatable",
    )
    check.add_argument(
        "--jit-decorator",
        action="append",
        default=[],
        dest="jit_decorators",
        metavar="NAME",
        help="extra decorator treated like jax.jit (e.g. mylib.compiled)",
    )


def _add_fix_and_output_arguments(check: argparse.ArgumentParser) -> None:
    """How to report and fix: format, --fix/--diff/--add-noqa, exit code, statistics."""
    check.add_argument(
        "--format",
        "--output-format",
        dest="format",
        choices=FORMATS,
        default="text",
        help="output format: text (default; with source lines), full (the same), concise (one "
        "line each), json (ruff's fields), sarif (code scanning), github (annotations)",
    )
    check.add_argument("--fix", action="store_true", help="apply safe fixes")
    check.add_argument(
        "--unsafe-fixes", action="store_true", help="also apply unsafe fixes (with --fix or --diff)"
    )
    check.add_argument(
        "--diff", action="store_true", help="print the fixes as a unified diff; write nothing"
    )
    check.add_argument(
        "--add-noqa",
        action="store_true",
        help="add `# noqa: CODE` to every line with a finding (adopting jaxlint on old code)",
    )
    check.add_argument("--show-fixes", action="store_true", help="list the fixes that were applied")
    check.add_argument(
        "--exit-zero", action="store_true", help="exit 0 even when there are findings"
    )
    check.add_argument(
        "--statistics",
        action="store_true",
        help="count findings per rule (JSON with --format json)",
    )


def _add_input_arguments(check: argparse.ArgumentParser) -> None:
    """Where settings and files come from: config, target JAX, stdin name, gitignore, excludes."""
    check.add_argument(
        "--config", help="a pyproject.toml (or TOML file) to use instead of discovery"
    )
    check.add_argument(
        "--target-jax",
        metavar="VERSION",
        help='JAX version (or constraint) the code must run on, e.g. 0.12 or ">=0.6,<0.11" '
        "(default: the project's jax constraint, else the installed jax, else the newest)",
    )
    check.add_argument("--stdin-filename", help="the name to report for stdin (with PATH -)")
    check.add_argument(
        "--respect-gitignore",
        dest="respect_gitignore",
        action="store_const",
        const=True,
        default=None,
        help="skip files ignored by .gitignore while walking folders (the default)",
    )
    check.add_argument(
        "--no-respect-gitignore",
        dest="respect_gitignore",
        action="store_const",
        const=False,
        help="lint gitignored files too",
    )
    check.add_argument(
        "--force-exclude",
        dest="force_exclude",
        action="store_const",
        const=True,
        default=None,
        help="apply the excludes to paths named on the command line too (for pre-commit)",
    )
    check.add_argument(
        "--no-force-exclude",
        dest="force_exclude",
        action="store_const",
        const=False,
        help=argparse.SUPPRESS,
    )


def _add_run_arguments(check: argparse.ArgumentParser) -> None:
    """How to run: inspection modes, output file, colour, cache, project index, jobs, verbosity."""
    check.add_argument(
        "--show-settings",
        action="store_true",
        help="print the settings used for the first file (and where each comes from); lint nothing",
    )
    check.add_argument(
        "--show-files",
        action="store_true",
        help="print the files that would be linted; lint nothing",
    )
    check.add_argument(
        "--output-file", "-o", metavar="FILE", help="write the report to FILE instead of stdout"
    )
    check.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the text output: auto (on a terminal, unless NO_COLOR is set; FORCE_COLOR "
        "forces it), always, never",
    )
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
        "--jobs",
        "-j",
        type=_jobs,
        default=None,
        metavar="N",
        help="worker processes, at least 1 (default: all cores)",
    )
    check.add_argument(
        "--verbose", "-v", action="store_true", help="tracebacks for internal errors"
    )
    check.add_argument("--quiet", "-q", action="store_true", help="print findings only, no summary")
    check.add_argument(
        "--min-confidence",
        choices=("medium", "high"),
        default=None,
        help="report (and fix) only findings this sure (default: medium, i.e. all)",
    )


# -- check ------------------------------------------------------------------------------


def _resolver(args: argparse.Namespace) -> ConfigResolver:
    overrides = {
        "select": parse_codes_arg(args.select, "--select") or None,
        "extend_select": parse_codes_arg(args.extend_select, "--extend-select"),
        "ignore": parse_codes_arg(args.ignore, "--ignore")
        + parse_codes_arg(args.extend_ignore, "--extend-ignore"),
        "exclude": tuple(_cli_pattern(p) for p in args.exclude),
        "jit_decorators": tuple(args.jit_decorators),
        "respect_gitignore": args.respect_gitignore,
        "force_exclude": args.force_exclude,
        "min_confidence": getattr(args, "min_confidence", None),
        "preview": getattr(args, "preview", None),
    }
    if getattr(args, "target_jax", None):
        from jaxlint.core.jaxversion import check

        overrides["target_jax"] = check(args.target_jax, "--target-jax")
    return ConfigResolver(args.config, overrides)


def _cli_pattern(pattern: str) -> str:
    """`--exclude ./tests` and `--exclude ../x/y` are paths from the current folder."""
    if pattern.startswith(("./", "../")) or pattern in (".", ".."):
        return os.path.abspath(pattern)
    return pattern


def _options(settings: Settings, args: argparse.Namespace) -> LintOptions:
    return LintOptions(settings=settings, verbose=args.verbose)


def run_check(args: argparse.Namespace) -> int:
    if not args.output_file:
        return _run_check(args)
    try:
        stream = open(args.output_file, "w", encoding="utf-8")  # noqa: SIM115
    except OSError as exc:
        raise UsageError(f"cannot write {args.output_file}: {exc.strerror or exc}") from None
    saved = sys.stdout
    sys.stdout = stream
    try:
        return _run_check(args)
    finally:
        sys.stdout = saved
        stream.close()


def _run_check(args: argparse.Namespace) -> int:
    if args.stdin_filename and not args.paths:
        args.paths = ["-"]
    paths = args.paths or ["."]
    resolver = _resolver(args)
    fixing = args.fix or args.diff
    diags: list[Diagnostic] = []
    sources: dict[str, list[str]] = {}
    summary = FixSummary()
    args.color_on = _color_on(args)

    if args.statistics and args.format not in ("text", "full", "concise", "json"):
        # a SARIF or GitHub-annotation consumer would read a statistics table as a broken
        # report; ruff refuses these pairs too
        raise UsageError(
            f"--statistics prints a table (text) or a JSON list (json); not {args.format}"
        )
    if args.add_noqa and (fixing or paths == ["-"]):
        raise UsageError(
            "--add-noqa works on files; it cannot be combined with --fix, --diff or stdin"
        )
    if paths == ["-"]:
        name = args.stdin_filename or "<stdin>"
        settings = resolver.for_path(name if name != "<stdin>" else os.getcwd())
        if args.show_settings:
            return _show_settings(settings, name, args)
        notices.note_target_coverage([settings])
        notices.warn_preview_selections([settings])
        notices.refuse_empty_selection([settings])
        summary.preview_hint = notices.preview_hint([settings])
        data = sys.stdin.buffer.read()
        summary.stdin = True
        diags = _check_stdin(data, name, settings, args, summary)
        if diags and args.format in ("text", "full") and not name.endswith(".ipynb"):
            # the excerpts show the text read, as ruff's do: `--stdin-filename`'s file on disk
            # may be another version of it (new-user review 4)
            sources[name] = summary.stdin_lines
        return _finish(diags, sources, args, summary)

    if "-" in paths:
        raise UsageError("`-` (stdin) cannot be combined with other paths")
    from jaxlint.files.discover import discover

    found = discover(paths, resolver.for_path)
    files = found.files
    if args.show_settings:
        target = files[0][0] if files else paths[0]
        shown = files[0][1] if files else target
        return _show_settings(resolver.for_path(target), shown, args)
    if args.show_files:
        for _, display in sorted(files, key=lambda f: f[1]):
            sys.stdout.write(display + "\n")
        return 0
    if args.add_noqa:
        return _add_noqa(files, resolver, args)
    notices.note_target_coverage([resolver.for_path(path) for path, _ in files])
    chosen = [resolver.for_path(path) for path, _ in files] or [resolver.for_path(paths[0])]
    notices.warn_preview_selections(chosen)
    notices.refuse_empty_selection(chosen)
    summary.preview_hint = notices.preview_hint(chosen)
    diags = [internal_error(display, message) for display, message in found.errors]
    if not files and not found.errors:
        warn("No Python files found under the given path(s)")
    show_progress = args.format in ("text", "full", "concise", "github") and not args.quiet
    if fixing:
        from jaxlint.run.parallel import Progress

        progress = Progress(len(files), enabled=show_progress)
        try:
            run = api.RunOptions.from_namespace(args)
            write = args.fix and not args.diff
            for _, display, result in api.fix_files(
                files, resolver, run, unsafe=args.unsafe_fixes, write=write
            ):
                summary.add(result, display)
                if args.diff and result.diff:
                    progress.clear()
                    sys.stdout.write(result.diff)
                diags.extend(result.remaining)
                progress.advance()
        finally:
            progress.close()
    else:
        run = api.RunOptions.from_namespace(args)
        diags.extend(api.lint_files(files, resolver, run, progress=show_progress))
    if args.format in ("text", "full") and not args.diff:
        for d in diags:
            if d.path not in sources and d.cell is None:
                sources[d.path] = _read_lines(d.path)
            elif d.cell is not None and (d.path, d.cell) not in sources:
                sources.update(api.notebook_cell_lines(d.path))
                sources.setdefault((d.path, d.cell), [])  # type: ignore[call-overload]
    return _finish(diags, sources, args, summary)


def _add_noqa(files: list[tuple[str, str]], resolver: ConfigResolver, args) -> int:  # noqa: ANN001
    """Lint (in parallel, cached), then add `# noqa: CODES` where findings are (add_noqa.py)."""
    from jaxlint.add_noqa import add_noqa_text
    from jaxlint.core.source import ReadError
    from jaxlint.files.read import read_source
    from jaxlint.files.write import write_atomic

    added = _add_noqa_notebooks([f for f in files if f[0].endswith(".ipynb")], resolver, args)
    files = [(path, display) for path, display in files if not path.endswith(".ipynb")]
    by_display: dict[str, list[Diagnostic]] = {}
    for d in api.lint_files(files, resolver, api.RunOptions.from_namespace(args)):
        if d.code not in ("JAX000", "JAX001"):
            by_display.setdefault(d.path, []).append(d)
    for path, display in files:
        diags = by_display.get(display)
        if not diags:
            continue
        try:
            source = read_source(path)
        except ReadError:
            continue
        result = add_noqa_text(source, diags)
        if result.skipped:
            print(
                f"jaxlint: warning: {display}: {result.skipped} finding(s) left: their line's"
                " `# noqa` is inside a string",
                file=sys.stderr,
            )
        if result.added:
            write_atomic(path, source.encode(result.text))
            added += result.added
    s = "" if added == 1 else "s"
    print(f"Added {added} noqa directive{s}.", file=sys.stderr)
    return 0


def _add_noqa_notebooks(files: list[tuple[str, str]], resolver: ConfigResolver, args) -> int:  # noqa: ANN001
    """`# noqa: CODES` on the cell lines of each notebook's findings (files/notebook.py)."""
    from jaxlint.core.source import ReadError
    from jaxlint.files.read import read_source
    from jaxlint.files.write import write_atomic

    added = 0
    for path, display in files:
        try:
            source = read_source(path)
        except ReadError:
            continue
        options = _options(resolver.for_path(path), args)
        text, n, left = api.add_noqa_notebook(source.text, options, display)
        if left:
            warn(f"{display}: {left} finding(s) left: on a magic line, or the notebook's JSON")
        if n:
            write_atomic(path, source.encode(text))
            added += n
    return added


def _color_on(args: argparse.Namespace) -> bool:
    """ruff's rules: --color wins; then NO_COLOR (any value) off, FORCE_COLOR on; else a TTY."""
    if args.color != "auto":
        return args.color == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if args.output_file or os.environ.get("TERM") == "dumb":
        return False
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _show_settings(settings: Settings, target: str, args: argparse.Namespace) -> int:
    from jaxlint.run.show_settings import cache_dir_line, show_settings

    cache = cache_dir_line(settings, getattr(args, "cache_dir", None), args.no_cache)
    sys.stdout.write(show_settings(settings, target, cache))
    return 0


def warn(message: str) -> None:
    print(f"jaxlint: warning: {message}", file=sys.stderr)


def _read_lines(path: str) -> list[str]:
    from jaxlint.files.read import read_source

    try:
        return read_source(path).text.splitlines()
    except Exception:
        return []


def _check_stdin(
    data: bytes, name: str, settings: Settings, args: argparse.Namespace, summary: FixSummary
) -> list[Diagnostic]:
    from jaxlint.core.source import ReadError, decode_source

    options = _options(settings, args)
    try:
        source = decode_source(data)
    except ReadError as exc:
        return [internal_error(name, f"could not read stdin: {exc}")]
    summary.stdin_lines = source.text.splitlines()
    if name.endswith(".py") and os.path.isfile(name):  # a file of a tree: its index's facts
        options.seeds = api.project_seeds(name, settings, enabled=not args.no_project_index)
    if name.endswith(".ipynb"):  # like ruff: the name says it is a notebook
        return _check_stdin_notebook(source.text, name, options, args, summary)
    if args.fix or args.diff:
        result = api.fix_text(source, name, options, unsafe=args.unsafe_fixes)
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
    return api.lint_text(source, name, options)


def _check_stdin_notebook(
    text: str, name: str, options: LintOptions, args: argparse.Namespace, summary: FixSummary
) -> list[Diagnostic]:
    if not (args.fix or args.diff):
        return api.lint_notebook_text(text, options, name)
    result, new_text = api.fix_notebook_text(text, name, options, unsafe=args.unsafe_fixes)
    if args.diff:
        sys.stdout.write(result.diff)
        summary.changed_files += bool(result.diff)
    else:
        sys.stdout.write(new_text)  # the notebook JSON, fixed, to stdout
        summary.quiet_output = True
    summary.fixed += len(result.fixed)
    return result.remaining


class FixSummary:
    def __init__(self) -> None:
        self.fixed = 0
        self.fixed_files = 0
        self.changed_files = 0
        self.failed: list[Diagnostic] = []
        self.applied: list[Diagnostic] = []
        self.readonly: list[tuple[str, int]] = []  # (display, fixes not applied)
        self.quiet_output = False
        self.stdin = False
        self.preview_hint = ""  # `notices.preview_hint`: said after a default run's summary
        self.stdin_lines: list[str] = []  # the decoded text read from stdin, for excerpts

    def add(self, result, display: str) -> None:  # noqa: ANN001
        self.fixed += len(result.fixed)
        self.applied.extend(result.fixed)
        self.failed.extend(result.failed)
        if getattr(result, "readonly", 0):
            self.readonly.append((display, result.readonly))
        if result.fixed:
            self.fixed_files += 1
        if result.diff:
            self.changed_files += 1


def _finish(
    diags: list[Diagnostic], sources: dict, args: argparse.Namespace, summary: FixSummary
) -> int:
    diags = sorted(diags, key=Diagnostic.sort_key)
    notices.warn_miscased(diags, sources)
    out = sys.stdout
    fixing = args.fix or args.diff
    color = getattr(args, "color_on", False)
    if summary.quiet_output:
        out = sys.stderr
    if args.diff:
        pass  # the diff is the output
    elif args.statistics:
        if args.format == "json":
            out.write(_statistics_json(diags))
        else:
            out.write(render_statistics(diags))
    else:
        out.write(
            RENDERERS[args.format](diags, unsafe=args.unsafe_fixes, sources=sources, color=color)
        )
    for display, n in summary.readonly:
        sys.stderr.write(
            f"jaxlint: warning: {display}: read-only; {n} fix{'es' if n != 1 else ''} not applied\n"
        )
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
        err.write(_summary_line(diags, summary, args, color and err is out))
    if args.exit_zero:
        return 0
    if args.diff:
        return 1 if summary.changed_files else (1 if diags and not fixing else 0)
    return 1 if diags or summary.readonly else 0


def _statistics_json(diags: list[Diagnostic]) -> str:
    """ruff's `--statistics --output-format json`: code, name, count, fixable."""
    from collections import Counter

    from jaxlint.rules import rules_by_code

    known = rules_by_code()
    counts = Counter(d.code for d in diags)
    fixable = Counter(d.code for d in diags if d.fix is not None and d.fix.safety == "safe")
    rows = [
        {
            "code": code,
            "name": known[code].name if code in known else "internal-error",
            "count": n,
            "fixable": bool(fixable[code]),
        }
        for code, n in counts.most_common()
    ]
    return json.dumps(rows, indent=2) + "\n"


def _summary_line(
    diags: list[Diagnostic], summary: FixSummary, args: argparse.Namespace, color: bool = False
) -> str:
    n = len(diags)
    safe = sum(1 for d in diags if d.fix is not None and d.fix.safety == "safe")
    unsafe = sum(1 for d in diags if d.fix is not None and d.fix.safety == "unsafe")
    star = "\x1b[36m[*]\x1b[0m" if color else "[*]"
    if args.fix or args.diff:
        if summary.fixed == 0:
            if n == 0:
                return "All checks passed!\n" if not args.diff else "No fixes to apply.\n"
            s = f"No fixes {'to apply' if args.diff else 'applied'}; {n} finding{'s' if n != 1 else ''} remaining"
        else:
            verb = "Would fix" if args.diff else "Fixed"
            s = f"{verb} {summary.fixed} finding{'s' if summary.fixed != 1 else ''}"
            if not args.diff and not summary.stdin:
                s += f" in {summary.fixed_files} file{'s' if summary.fixed_files != 1 else ''}"
            s += f"; {n} remaining"
        if unsafe and not args.unsafe_fixes:
            s += f", {unsafe} with unsafe fixes (use --unsafe-fixes)"
        return s + ".\n"
    hint = f"{summary.preview_hint}\n" if summary.preview_hint else ""
    if n == 0:
        return "All checks passed!\n" + hint
    s = f"Found {n} finding{'s' if n != 1 else ''}."
    if args.unsafe_fixes:
        if safe + unsafe:
            s += f"\n{star} {safe + unsafe} fixable with `jaxlint check --fix --unsafe-fixes`."
        return s + "\n" + hint
    if safe:
        s += f"\n{star} {safe} fixable with `jaxlint check --fix`."
    if unsafe:
        s += f"\n{unsafe} more fixable with `--unsafe-fixes`."
    return s + "\n" + hint


# -- rules / explain ------------------------------------------------------------------------


def _preview_text(code: str) -> str:
    """`yes` (the whole rule), `medium` (only those findings), or "" (not in preview)."""
    from jaxlint.core.codes import is_preview_rule, preview_confidences

    if is_preview_rule(code):
        return "yes"
    return ",".join(preview_confidences(code))


def run_rules(args: argparse.Namespace) -> int:
    from jaxlint.core.codes import is_preview_rule

    rows = api.rule_rows()
    if args.format == "json":
        sys.stdout.write(json.dumps(rows, indent=2) + "\n")
        return 0
    headers = ("code", "name", "default", "fix", "verifier", "preview")
    table = [
        (
            r["code"],
            r["name"],
            ("preview" if is_preview_rule(r["code"]) else "on") if r["default"] else "opt-in",
            r["fix"],
            r["verifier"],
            _preview_text(r["code"]),
        )
        for r in rows
    ]
    widths = [max(len(h), *(len(t[i]) for t in table)) for i, h in enumerate(headers)]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths))
    sys.stdout.write(line.rstrip() + "\n")
    sys.stdout.write("  ".join("-" * w for w in widths) + "\n")
    for t in table:
        sys.stdout.write("  ".join(c.ljust(w) for c, w in zip(t, widths)).rstrip() + "\n")
    if any(t[-1] for t in table):
        sys.stdout.write(
            "\npreview: runs only with --preview (yes, and default `preview`: the whole rule;"
            " medium: only its medium-confidence findings)\n"
        )
    return 0


def run_explain(args: argparse.Namespace) -> int:
    sys.stdout.write(api.explain(args.code))
    return 0


def main(argv: Sequence[str] | None = None) -> int:  # pragma: no cover - convenience
    from jaxlint.cli import main as cli_main

    return cli_main(argv)
