"""`jaxlint mcp`: the linter, fixer and JAX toolbox as a Model Context Protocol server (stdio).

An agent that writes JAX code calls these tools to check it, fix it, prove a suspicion with JAX
and benchmark honestly instead of guessing. Every tool is a thin wrapper over the Python API the
CLI uses (`engine`, `fixing`, `verify`, `runtime`), so answers match `jaxlint check --format json`
and the runtime tools run in the same sandbox, with the same timeouts and memory limits.

Safety: the client is a language model, so paths are untrusted. Every path is resolved (symlinks
included) and must lie inside one of the server's roots (`--root` folders, else the roots the client
announces, else the working directory); nothing outside them is read or written, and files only
change with `write=true`.
Failures come back as tool errors with a clear message; the server itself keeps running.

This module imports the `mcp` SDK at import time; `jaxlint.integrations.mcp_command` imports it
only when `jaxlint mcp` runs, so `jaxlint check` never pays for it.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import inspect
import json
import logging
import os
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import Field
from typing_extensions import TypedDict

from jaxlint import __version__
from jaxlint.diagnostic import Diagnostic
from jaxlint.errors import UsageError

logger = logging.getLogger("jaxlint.mcp")

SERVER_NAME = "jaxlint"
INSTRUCTIONS = (
    "jaxlint finds, fixes and proves JAX sharp bits. Typical loop: `check` the files you wrote "
    "(or inline `code`), read `explain` for a rule you do not know, `fix` (a diff first, "
    "`write=true` to apply), then prove a suspicion with `verify` (runs the flagged function "
    "with JAX in a sandbox) and measure with `bench` / `recompile` / `probe`. `env` describes "
    "the JAX installation; `template` gives idiomatic starter code; `locate` searches JAX's own "
    "docs and sources. Paths are relative to the server's working directory and must stay "
    "inside it."
)

# --------------------------------------------------------------------------- output types


class FixEdit(TypedDict):
    content: str
    line: int
    column: int
    end_line: int
    end_column: int


class FixInfo(TypedDict):
    applicability: Literal["safe", "unsafe", "display-only"]
    message: str | None
    edits: list[FixEdit]


class Finding(TypedDict):
    code: str
    name: str
    message: str
    path: str
    cell: int | None
    line: int
    column: int
    end_line: int
    end_column: int
    fix: FixInfo | None


class CheckResult(TypedDict):
    findings: list[Finding]
    files: int
    summary: str


class FixResult(TypedDict):
    diff: str
    fixed: int
    remaining: list[Finding]
    written: list[str]
    code: str | None


class ExplainResult(TypedDict):
    code: str
    name: str
    text: str


class RuleRow(TypedDict):
    code: str
    name: str
    default: bool
    fix: str
    verifier: str
    tier: int
    summary: str
    templates: list[str]


class RulesResult(TypedDict):
    rules: list[RuleRow]


class TemplateResult(TypedDict):
    name: str | None
    filename: str | None
    summary: str | None
    rules: list[str]
    source: str | None
    available: list[str]


# --------------------------------------------------------------------------- input types

PathsArg = Annotated[
    list[str] | None,
    Field(
        description="files or folders to lint, relative to the server's working directory "
        "(default: the whole directory when no `code` is given)"
    ),
]
CodeArg = Annotated[str | None, Field(description="inline Python source to lint instead of files")]
FilenameArg = Annotated[
    str,
    Field(
        description="the name reported for inline `code` (and where its configuration is "
        "looked up); it is not read"
    ),
]
Selectors = Annotated[
    list[str] | None,
    Field(description='rule codes or prefixes, e.g. ["JAX1", "JAX201"]; "ALL" for every rule'),
]
Target = Annotated[
    str, Field(description="FILE::FUNCTION, e.g. model.py::loss (relative to the root)")
]
ArgsSpec = Annotated[str, Field(description='example inputs, e.g. "f32[8,128], i32[], key, 3"')]
Names = Annotated[list[str] | None, Field(description='parameter names, e.g. ["training"]')]
Timeout = Annotated[
    float | None, Field(description="kill the JAX subprocess after this many seconds (120)")
]
Memory = Annotated[int | None, Field(description="address-space limit of the JAX subprocess in MB")]


# --------------------------------------------------------------------------- paths


class Roots:
    """The folders the server may read and write; every path is checked against them.

    Relative paths are taken from the first root. A path counts as inside when its fully
    resolved form (symlinks followed, `..` collapsed) is a root or lies below one, so neither
    `../x` nor a symlink pointing out of the tree escapes.
    """

    def __init__(self, roots: Sequence[str], base: str | None = None) -> None:
        if not roots:
            raise ValueError("at least one root is needed")
        self.roots = [os.path.realpath(r) for r in roots]
        real_base = os.path.realpath(base) if base else None
        self.base = real_base if real_base and self.contains(real_base) else self.roots[0]

    def contains(self, real: str) -> bool:
        return any(real == r or real.startswith(r.rstrip(os.sep) + os.sep) for r in self.roots)

    def resolve(self, path: str, *, must_exist: bool = True) -> str:
        """The real path of `path`, or a ToolError when it is outside the roots or missing."""
        if not isinstance(path, str) or not path.strip():
            raise ToolError("empty path")
        if "\x00" in path:
            raise ToolError("invalid path (NUL byte)")
        expanded = path if os.path.isabs(path) else os.path.join(self.base, path)
        real = os.path.realpath(expanded)
        if not self.contains(real):
            raise ToolError(
                f"{path!r} is outside the server's root ({', '.join(self.roots)}); "
                "only files below it can be read or written"
            )
        if must_exist and not os.path.exists(real):
            raise ToolError(f"{path!r}: no such file or directory")
        return real

    def display(self, real: str) -> str:
        """How a path is shown to the client: relative to the first root when below it."""
        base = self.base.rstrip(os.sep) + os.sep
        return real[len(base) :] if real.startswith(base) else real

    def files(self, paths: Sequence[str], settings_for: Callable[[str], Any]) -> list[str]:
        """Real paths of the Python files under `paths`, honouring the config's excludes, and
        dropping any file (a symlink, say) that resolves outside the roots."""
        from jaxlint.files.discover import iter_python_files

        real_paths = [self.resolve(p) for p in paths]
        out: list[str] = []
        seen: set[str] = set()
        for found, _display in iter_python_files(real_paths, settings_for, warn=lambda m: None):
            real = os.path.realpath(found)
            if real in seen or not self.contains(real):
                continue
            seen.add(real)
            out.append(real)
        return out


class RootsPolicy:
    """Which roots apply to a tool call.

    `--root` folders win. Otherwise, when the client announces roots (the MCP `roots`
    capability: the folders its user opened), those are the roots, asked for on each call since
    they can change; relative paths start at the working directory when it lies inside them.
    Otherwise the working directory is the one root.
    """

    ASK_SECONDS = 5.0

    def __init__(self, fixed: Sequence[str] | None) -> None:
        self.cwd = os.getcwd()
        self.fixed = Roots(list(fixed)) if fixed else None
        self.default = Roots([self.cwd])

    def for_call(self, ctx: Context | None) -> Roots:
        if self.fixed is not None:
            return self.fixed
        announced = self._client_roots(ctx) if ctx is not None else None
        return Roots(announced, base=self.cwd) if announced else self.default

    def _client_roots(self, ctx: Context) -> list[str] | None:
        import warnings
        from urllib.parse import unquote, urlparse

        import anyio.from_thread

        try:
            capabilities = ctx.client_capabilities
        except Exception:  # no request context (a direct call in tests)
            return None
        if capabilities is None or capabilities.roots is None:
            return None

        async def ask() -> Any:
            with anyio.fail_after(self.ASK_SECONDS), warnings.catch_warnings():
                warnings.simplefilter("ignore")  # roots are deprecated in the newest protocol
                return await ctx.session.list_roots()

        try:
            result = anyio.from_thread.run(ask)
        except Exception as exc:  # a client that announces roots but does not answer
            logger.warning("could not list the client's roots (%s); using %s", exc, self.cwd)
            return None
        folders = []
        for root in result.roots:
            uri = urlparse(str(root.uri))
            if uri.scheme == "file" and os.path.isdir(unquote(uri.path)):
                folders.append(unquote(uri.path))
        return folders or None


# --------------------------------------------------------------------------- helpers

_F = TypeVar("_F", bound=Callable[..., Any])


def _tool_errors(fn: _F) -> _F:
    """Turn expected failures into tool errors with their message (the SDK hides the text of
    unexpected exceptions from the client, which would leave an agent guessing)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except ToolError:
            raise
        except UsageError as exc:
            raise ToolError(str(exc)) from None
        except _ToolFailed as exc:
            raise ToolError(_failure_text(exc.outcome)) from None
        except (OSError, ValueError) as exc:
            raise ToolError(f"{type(exc).__name__}: {exc}") from None
        except Exception as exc:  # a bug: say so, with the type, instead of a bare "error"
            raise ToolError(
                f"internal error: {type(exc).__name__}: {exc} (please report this bug)"
            ) from None

    return wrapper  # type: ignore[return-value]


class _ToolFailed(Exception):
    def __init__(self, outcome: dict[str, Any]) -> None:
        super().__init__(outcome.get("reason", "failed"))
        self.outcome = outcome


def _failure_text(outcome: dict[str, Any]) -> str:
    error = outcome.get("error") or {}
    lines = [f"the JAX subprocess failed: {outcome.get('reason', 'unknown reason')}"]
    if error.get("type"):
        lines.append(f"{error['type']}: {error.get('message', '')}")
    tail = [line for line in outcome.get("stderr_tail", [])[-10:] if line.strip()]
    if tail:
        lines.append("stderr (last lines):")
        lines.extend(tail)
    return "\n".join(lines)


def _codes(value: list[str] | str | None, flag: str) -> tuple[str, ...]:
    from jaxlint.config import parse_codes_arg

    if value is None:
        return ()
    text = value if isinstance(value, str) else ",".join(value)
    return parse_codes_arg(text, flag)


def finding(d: Diagnostic, display: str | None = None) -> Finding:
    """One diagnostic as the client sees it: 1-based lines and columns (as `--format json`)."""
    fix: FixInfo | None = None
    if d.fix is not None:
        fix = {
            "applicability": d.fix.safety,
            "message": d.fix.message or None,
            "edits": [
                {
                    "content": e.content,
                    "line": e.start.line,
                    "column": e.start.col + 1,
                    "end_line": e.end.line,
                    "end_column": e.end.col + 1,
                }
                for e in d.fix.edits
            ],
        }
    return {
        "code": d.code,
        "name": d.name,
        "message": d.message,
        "path": display if display is not None else d.path,
        "cell": None if d.cell is None else d.cell + 1,
        "line": d.line,
        "column": d.col + 1,
        "end_line": d.span.end.line,
        "end_column": d.span.end.col + 1,
        "fix": fix,
    }


def _summary(diags: Sequence[Diagnostic]) -> str:
    if not diags:
        return "All checks passed!"
    safe = sum(1 for d in diags if d.fix is not None and d.fix.safety == "safe")
    unsafe = sum(1 for d in diags if d.fix is not None and d.fix.safety == "unsafe")
    text = f"Found {len(diags)} finding{'s' if len(diags) != 1 else ''}"
    if safe or unsafe:
        text += f" ({safe} with safe fixes, {unsafe} with unsafe fixes: use the `fix` tool)"
    return text + "."


def _jsonable(value: dict[str, Any]) -> dict[str, Any]:
    """A runtime report as plain JSON (numbers, strings, lists, dicts), as the CLI prints it."""
    return json.loads(json.dumps(value, default=str))


def _require_jax(tool: str) -> None:
    if importlib.util.find_spec("jax") is None:
        raise ToolError(
            f"`{tool}` runs your code with JAX, which is not installed in the server's "
            "environment (pip install -e '.[runtime]')"
        )


def _timeout(value: float | None, default: float) -> float:
    if value is None:
        return default
    if value <= 0:
        raise ToolError("timeout must be positive")
    return value


# --------------------------------------------------------------------------- the server


def build_server(roots: Sequence[str] | None = None) -> MCPServer:
    """The MCP server with every jaxlint tool and the rule docs as resources."""
    policy = RootsPolicy(roots)
    server: MCPServer = MCPServer(
        SERVER_NAME,
        title="jaxlint",
        description="Find, fix and prove JAX sharp bits.",
        instructions=INSTRUCTIONS,
        version=__version__,
        log_level="WARNING",
    )
    read_only = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
    # verify/probe/bench/recompile/env import and run the user's code: not read-only by nature.
    runs_code = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)

    def resolver(select: Any, ignore: Any) -> Any:
        from jaxlint.config import ConfigResolver

        overrides = {
            "select": _codes(select, "select"),
            "ignore": _codes(ignore, "ignore"),
        }
        return ConfigResolver(None, overrides)

    def _inline_name(box: Roots, filename: str) -> tuple[str, str]:
        """(the name reported, the path whose configuration applies), inside the roots."""
        return filename, box.resolve(filename, must_exist=False)

    @server.tool(annotations=read_only, structured_output=True)
    @_tool_errors
    def check(
        paths: PathsArg = None,
        code: CodeArg = None,
        filename: FilenameArg = "snippet.py",
        select: Selectors = None,
        ignore: Selectors = None,
        ctx: Context | None = None,
    ) -> CheckResult:
        """Lint JAX code for sharp bits (like `jaxlint check --format json`); reads, never
        writes. Lines and columns are 1-based. A finding with `fix` can be fixed by the `fix`
        tool (`unsafe` fixes may change results, e.g. new random numbers)."""
        box = policy.for_call(ctx)
        from jaxlint.engine import LintOptions, lint_text
        from jaxlint.files.driver import lint_file

        if code is not None and paths:
            raise ToolError("give either `paths` or `code`, not both")
        configs = resolver(select, ignore)
        if code is not None:
            name, where = _inline_name(box, filename)
            settings = configs.for_path(where)
            diags = lint_text(code, name, LintOptions(settings=settings))
            return {
                "findings": [finding(d) for d in diags],
                "files": 1,
                "summary": _summary(diags),
            }
        files = box.files(paths or ["."], configs.for_path)
        diags: list[Diagnostic] = []
        for real in files:
            display = box.display(real)
            diags.extend(lint_file(real, LintOptions(settings=configs.for_path(real)), display))
        diags.sort(key=Diagnostic.sort_key)
        return {
            "findings": [finding(d) for d in diags],
            "files": len(files),
            "summary": _summary(diags),
        }

    @server.tool(
        annotations=ToolAnnotations(
            read_only_hint=False,
            destructive_hint=False,
            idempotent_hint=True,
            open_world_hint=False,
        ),
        structured_output=True,
    )
    @_tool_errors
    def fix(
        paths: PathsArg = None,
        code: CodeArg = None,
        filename: FilenameArg = "snippet.py",
        unsafe: Annotated[
            bool,
            Field(description="also apply unsafe fixes (they can change behaviour or results)"),
        ] = False,
        write: Annotated[
            bool,
            Field(
                description="write the fixed files (atomically); default false: only return "
                "the diff"
            ),
        ] = False,
        select: Selectors = None,
        ignore: Selectors = None,
        ctx: Context | None = None,
    ) -> FixResult:
        """Apply jaxlint's fixes: returns a unified diff and the findings that remain. Files
        change only with `write=true`; inline `code` is never written, its fixed text comes back
        in `code`."""
        box = policy.for_call(ctx)
        from jaxlint.engine import LintOptions, fix_text
        from jaxlint.files.driver import fix_file, unified_diff

        if code is not None and paths:
            raise ToolError("give either `paths` or `code`, not both")
        configs = resolver(select, ignore)
        if code is not None:
            name, where = _inline_name(box, filename)
            settings = configs.for_path(where)
            result = fix_text(code, name, LintOptions(settings=settings), unsafe=unsafe)
            return {
                "diff": unified_diff(code, result.text, name),
                "fixed": len(result.fixed),
                "remaining": [finding(d) for d in result.remaining],
                "written": [],
                "code": result.text,
            }
        files = box.files(paths or ["."], configs.for_path)
        diff, fixed, written = [], 0, []
        remaining: list[Diagnostic] = []
        for real in files:
            display = box.display(real)
            options = LintOptions(settings=configs.for_path(real))
            out = fix_file(real, display, options, unsafe=unsafe, write=write)
            fixed += len(out.fixed)
            remaining.extend(out.remaining)
            if out.diff:
                diff.append(out.diff)
                if write:
                    written.append(display)
        remaining.sort(key=Diagnostic.sort_key)
        return {
            "diff": "".join(diff),
            "fixed": fixed,
            "remaining": [finding(d) for d in remaining],
            "written": written,
            "code": None,
        }

    @server.tool(annotations=read_only, structured_output=True)
    @_tool_errors
    def explain(
        code: Annotated[
            str, Field(description="rule code (JAX101) or name (host-conversion-of-traced-value)")
        ],
    ) -> ExplainResult:
        """A rule's documentation: what it flags, why it is bad in JAX terms, an example, what
        to use instead, fix safety, its runtime verifier and the template showing the fix."""
        from jaxlint.commands import explain_text
        from jaxlint.rules import get_rule

        rule = get_rule(code)
        if rule is None:
            raise ToolError(f"unknown rule {code!r} (the `rules` tool lists them)")
        return {"code": rule.code, "name": rule.name, "text": explain_text(rule.code)}

    @server.tool(annotations=read_only, structured_output=True)
    @_tool_errors
    def rules() -> RulesResult:
        """Every rule: code, name, on by default or opt-in, fix safety, runtime verifier,
        one-line summary and related templates."""
        from jaxlint.commands import _rule_rows

        return {"rules": _rule_rows()}  # type: ignore[typeddict-item]

    @server.tool(annotations=runs_code, structured_output=True)
    @_tool_errors
    def verify(
        target: Annotated[
            str,
            Field(
                description="FILE or FILE::FUNCTION to verify, e.g. train.py::train_step "
                "(relative to the server's working directory)"
            ),
        ],
        args: Annotated[
            str | None,
            Field(
                description='example inputs of FUNCTION, e.g. "f32[8,128], i32[], key, 3" '
                "(without them: pyproject [tool.jaxlint.verify], annotations or guesses)"
            ),
        ] = None,
        static: Annotated[list[str] | None, Field(description="parameters to keep static")] = None,
        select: Selectors = None,
        guess_inputs: Annotated[
            bool, Field(description="fill parameters without inputs by their names")
        ] = False,
        check_fixes: Annotated[
            bool, Field(description="also verify each finding's fix (slower)")
        ] = True,
        capture_main: Annotated[
            bool,
            Field(
                description="take inputs recorded from the file's own `__main__` run (as "
                "`jaxlint verify --capture-main`)"
            ),
        ] = False,
        timeout: Annotated[
            float | None, Field(description="seconds per finding (default: as the CLI, 60)")
        ] = None,
        memory_mb: Annotated[
            int | None, Field(description="address-space limit of the JAX subprocess")
        ] = None,
        ctx: Context | None = None,
    ) -> dict[str, Any]:
        """Prove findings by running the flagged code with JAX in a sandboxed subprocess (the
        module is imported, its `__main__` block is not run): each finding gets `confirmed`,
        `not-reproduced` or `could-not-run` with evidence (exceptions, compile counts, draws,
        transfers, timings of original and fixed code)."""
        box = policy.for_call(ctx)
        from jaxlint.verify import driver as verify_mod

        path_part, sep, function = target.partition("::")
        real = box.resolve(path_part)
        if not os.path.isfile(real):
            raise ToolError(f"{path_part!r} is not a file")
        local = f"{real}{sep}{function}"
        path, function_name = verify_mod.split_target(local)
        if args:
            from jaxlint.runtime.toolbox.inputs import parse_specs, split_items

            try:
                parse_specs([i for i in split_items(args) if not i.strip().startswith("=")])
            except UsageError as exc:
                raise ToolError(f"args: {exc}") from None
        kwargs: dict[str, Any] = {}
        if capture_main:
            if "capture_main" not in inspect.signature(verify_mod.verify_file).parameters:
                raise ToolError(
                    "capture_main is not available in this version of jaxlint "
                    f"({__version__}); pass `args` instead"
                )
            kwargs["capture_main"] = True
        if memory_mb is not None and memory_mb <= 0:
            raise ToolError("memory_mb must be positive")
        _require_jax("verify")
        report = verify_mod.verify_file(
            path,
            function=function_name,
            args=args,
            static=tuple(static or ()),
            select=",".join(_codes(select, "select")) or None,
            guess=guess_inputs,
            check_fixes=check_fixes,
            seed=0,
            timeout=_timeout(timeout, verify_mod.DEFAULT_TIMEOUT),
            memory_mb=memory_mb,
            echo=False,
            **kwargs,
        )
        report["file"] = box.display(real)
        return _jsonable(report)

    def _function(box: Roots, target: str) -> tuple[str, str]:
        """(the canonical `REALPATH::FUNC` for the sandbox, the target as the client wrote it)."""
        from jaxlint.runtime.toolbox.commands import _function_ref

        path_part, sep, function = target.partition("::")
        if not sep or not function:
            raise ToolError(f"expected FILE::FUNCTION, got {target!r}")
        real = box.resolve(path_part)
        return _function_ref(f"{real}::{function}", None), target

    def _sandbox(
        target: str, payload: dict[str, Any], timeout: float | None, memory_mb: int | None
    ) -> dict[str, Any]:
        from jaxlint.runtime.toolbox.commands import DEFAULT_TIMEOUT, ToolFailed, _run

        if memory_mb is not None and memory_mb <= 0:
            raise ToolError("memory_mb must be positive")
        namespace = argparse.Namespace(
            timeout=_timeout(timeout, DEFAULT_TIMEOUT), memory_mb=memory_mb
        )
        try:
            return _run(target, payload, namespace)
        except ToolFailed as exc:
            raise _ToolFailed(exc.outcome) from None

    def _specs(text: str, what: str) -> str:
        from jaxlint.runtime.toolbox.commands import _check_specs

        return _check_specs(text, what)

    def _names(values: list[str] | None) -> str | None:
        return ",".join(values) if values else None

    @server.tool(annotations=runs_code, structured_output=True)
    @_tool_errors
    def probe(
        target: Target,
        args: ArgsSpec,
        static: Names = None,
        donate: Names = None,
        include: Annotated[
            list[Literal["jaxpr", "stablehlo", "hlo"]] | None,
            Field(description='big texts to include (default ["jaxpr"])'),
        ] = None,
        seed: int = 0,
        timeout: Timeout = None,
        memory_mb: Memory = None,
        ctx: Context | None = None,
    ) -> dict[str, Any]:
        """Trace, lower and compile FILE::FUNCTION on example inputs (nothing is executed):
        output shapes, jaxpr, StableHLO, HLO, XLA cost and memory analysis, donation aliasing,
        host callbacks (as `jaxlint probe`)."""
        box = policy.for_call(ctx)
        from jaxlint.runtime.toolbox.probe import BIG_TEXT_KEYS

        function, shown = _function(box, target)
        _require_jax("probe")
        payload = {
            "function": function,
            "args": _specs(args, "args"),
            "static": _names(static),
            "donate": _names(donate),
            "seed": seed,
        }
        result = _sandbox("jaxlint.runtime.toolbox.probe:run", payload, timeout, memory_mb)
        result["function"] = shown
        keep = set(include if include is not None else ["jaxpr"])
        return _jsonable({k: v for k, v in result.items() if k not in BIG_TEXT_KEYS or k in keep})

    @server.tool(annotations=runs_code, structured_output=True)
    @_tool_errors
    def bench(
        target: Target,
        args: ArgsSpec,
        repeat: Annotated[int, Field(ge=1, description="timed runs")] = 20,
        warmup: Annotated[int, Field(ge=0, description="untimed warm-up runs")] = 3,
        static: Names = None,
        donate: Names = None,
        jit: Annotated[bool, Field(description="false: call the function as is")] = True,
        compare: Annotated[
            str | None, Field(description="a second FILE::FUNCTION to run alternately")
        ] = None,
        seed: int = 0,
        timeout: Timeout = None,
        memory_mb: Memory = None,
        ctx: Context | None = None,
    ) -> dict[str, Any]:
        """Honest benchmark (as `jaxlint bench`): input transfer, trace, lower and compile timed
        separately, then warm-up and blocked steady-state runs (median, IQR); `compare` times a
        second function alternately on the same inputs and checks the outputs match."""
        box = policy.for_call(ctx)
        function, shown = _function(box, target)
        other = _function(box, compare) if compare else None
        _require_jax("bench")
        payload = {
            "function": function,
            "compare": other[0] if other else None,
            "args": _specs(args, "args"),
            "repeat": repeat,
            "warmup": warmup,
            "static": _names(static),
            "donate": _names(donate),
            "jit": jit,
            "seed": seed,
            "progress": False,
        }
        result = _sandbox("jaxlint.runtime.toolbox.bench:run", payload, timeout, memory_mb)
        result["function"] = shown
        if other and isinstance(result.get("compare"), dict):
            result["compare"]["function"] = other[1]
        return _jsonable(result)

    @server.tool(annotations=runs_code, structured_output=True)
    @_tool_errors
    def recompile(
        target: Target,
        cases: Annotated[
            list[str],
            Field(min_length=1, description='one input spec per call, e.g. ["f32[4]", "f32[8]"]'),
        ],
        static: Names = None,
        seed: int = 0,
        timeout: Timeout = None,
        memory_mb: Memory = None,
        ctx: Context | None = None,
    ) -> dict[str, Any]:
        """Run each case through ONE jax.jit wrapper and report which compiled, JAX's reason
        for each cache miss and warnings (weak types, dtype drift, shape/static changes)."""
        box = policy.for_call(ctx)
        function, shown = _function(box, target)
        _require_jax("recompile")
        payload = {
            "function": function,
            "cases": [_specs(case, f"case {i + 1}") for i, case in enumerate(cases)],
            "static": _names(static),
            "seed": seed,
        }
        result = _sandbox("jaxlint.runtime.toolbox.recompile:run", payload, timeout, memory_mb)
        result["function"] = shown
        return _jsonable(result)

    @server.tool(annotations=runs_code, structured_output=True)
    @_tool_errors
    def env(
        smoke_test: Annotated[bool, Field(description="also jit and time a small matmul")] = False,
        timeout: Timeout = None,
    ) -> dict[str, Any]:
        """The JAX environment (as `jaxlint env`): versions, backend, devices, config, relevant
        environment variables and warnings about settings that do not do what they seem to."""
        from jaxlint.runtime.toolbox.commands import DEFAULT_TIMEOUT
        from jaxlint.runtime.toolbox.env import collect_env

        return _jsonable(
            collect_env(smoke_test=smoke_test, timeout=_timeout(timeout, DEFAULT_TIMEOUT))
        )

    @server.tool(annotations=read_only, structured_output=True)
    @_tool_errors
    def locate(
        topic: Annotated[str, Field(description="words, e.g. 'shard_map' or 'key reuse'")],
        kind: Annotated[
            Literal["doc", "test", "source"] | None, Field(description="only this kind of file")
        ] = None,
        limit: Annotated[int, Field(ge=1, le=100)] = 10,
    ) -> dict[str, Any]:
        """Search the installed JAX package's docs, tests and sources for a topic (offline)."""
        from jaxlint.runtime.toolbox.locate import locate as run_locate

        if not topic.strip():
            raise ToolError("empty topic")
        return _jsonable(run_locate(topic, root=None, kind=kind, limit=limit, use_cache=True))

    @server.tool(annotations=read_only, structured_output=True)
    @_tool_errors
    def template(
        name: Annotated[
            str | None,
            Field(description="template name, e.g. mre, training-step, benchmark (omit to list)"),
        ] = None,
    ) -> TemplateResult:
        """An idiomatic JAX starter program (the canonical way of doing one thing, e.g. `mre`
        for a minimal reproducer, `benchmark` for honest timing); without `name`, the list."""
        from jaxlint.templates import TEMPLATES, get_template

        available = [f"{t.name}: {t.summary}" for t in TEMPLATES.values()]
        if name is None:
            return {
                "name": None,
                "filename": None,
                "summary": None,
                "rules": [],
                "source": None,
                "available": available,
            }
        found = TEMPLATES.get(name)
        if found is None:
            raise ToolError(f"unknown template {name!r}; choose one of: {', '.join(TEMPLATES)}")
        return {
            "name": found.name,
            "filename": found.filename,
            "summary": found.summary,
            "rules": list(found.rules),
            "source": get_template(found.name),
            "available": available,
        }

    _register_rule_resources(server)
    return server


def _register_rule_resources(server: MCPServer) -> None:
    """`jaxlint://rules/JAX201` for every rule (listed), plus the index `jaxlint://rules`."""
    from jaxlint.commands import explain_text
    from jaxlint.rules import ALL_RULES

    def reader(code: str) -> Callable[[], str]:
        def read() -> str:
            return explain_text(code)

        return read

    for rule in ALL_RULES:
        server.resource(
            f"jaxlint://rules/{rule.code}",
            name=f"{rule.code} {rule.name}",
            description=rule.summary(),
            mime_type="text/markdown",
        )(reader(rule.code))

    @server.resource(
        "jaxlint://rules",
        name="jaxlint rules",
        description="the rule index",
        mime_type="text/markdown",
    )
    def index() -> str:
        return "\n".join(f"- {r.code} `{r.name}`: {r.summary()}" for r in ALL_RULES) + "\n"


def serve(roots: Sequence[str] | None = None) -> int:
    """Run the server over stdio until the client closes the connection."""
    build_server(roots).run("stdio")
    return 0
