"""The static MCP tools: `check`, `fix`, `explain`, `rules` and `template`.

Each is a thin wrapper over the library facade the CLI calls too (`jaxlint.api`; `templates`
for the starter programs), so its answer matches `jaxlint check --format json --no-cache
--no-project-index`. `check` and `fix` take either `paths` (files or
folders inside the roots) or inline `code`; `Sources` resolves that choice once for both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import Field

from jaxlint import api
from jaxlint.core.config import ConfigResolver, Settings
from jaxlint.core.diagnostic import Diagnostic
from jaxlint.integrations.mcp.roots import RootsPolicy
from jaxlint.integrations.mcp.schema import (
    CheckResult,
    CodeArg,
    ExplainResult,
    FilenameArg,
    FixResult,
    PathsArg,
    PreviewArg,
    RulesResult,
    Selectors,
    TemplateResult,
    finding,
    summary,
)
from jaxlint.integrations.mcp.toolkit import READ_ONLY, parse_codes, tool_errors

# how the tools run over files: no cache (a server answers many clients and roots), no project
# index (as before the facade; see docs/api.md), one process, and every fix's edits kept (the
# findings carry them)
_RUN = api.RunOptions(jobs=1, no_cache=True, no_project_index=True, format="json")


@dataclass(frozen=True)
class Sources:
    """What a `check` or `fix` call works on: inline `code` (reported as `name`, configured as
    `settings`) or files (real path, displayed path), configured by `configs`."""

    configs: ConfigResolver
    name: str | None = None
    settings: Settings | None = None
    files: tuple[tuple[str, str], ...] = ()

    def settings_for(self, real: str) -> Settings:
        return self.configs.for_path(real)


def sources(
    policy: RootsPolicy,
    ctx: Context | None,
    paths: list[str] | None,
    code: str | None,
    filename: str,
    select: list[str] | None,
    ignore: list[str] | None,
    preview: bool | None = None,
) -> Sources:
    """Resolve a call's `paths` or inline `code` inside the roots, with the configuration of
    each (`select`/`ignore`/`preview` override it, as the CLI's flags do)."""
    box = policy.for_call(ctx)
    if code is not None and paths:
        raise ToolError("give either `paths` or `code`, not both")
    overrides = {
        "select": parse_codes(select, "select"),
        "ignore": parse_codes(ignore, "ignore"),
        "preview": preview,
    }
    configs = ConfigResolver(None, overrides)
    if code is not None:
        # the name reported, and the path (inside the roots) whose configuration applies
        where = box.resolve(filename, must_exist=False)
        return Sources(configs, name=filename, settings=configs.for_path(where))
    files = box.files(paths or ["."], configs.for_path)
    return Sources(configs, files=tuple((real, box.display(real)) for real in files))


def add_check(server: MCPServer, policy: RootsPolicy) -> None:
    """Register `check`: lint files or inline code, read-only."""

    @server.tool(annotations=READ_ONLY, structured_output=True)
    @tool_errors
    def check(
        paths: PathsArg = None,
        code: CodeArg = None,
        filename: FilenameArg = "snippet.py",
        select: Selectors = None,
        ignore: Selectors = None,
        preview: PreviewArg = None,
        ctx: Context | None = None,
    ) -> CheckResult:
        """Lint JAX code for sharp bits (like `jaxlint check --format json`); reads, never
        writes. Lines and columns are 1-based. A finding with `fix` can be fixed by the `fix`
        tool (`unsafe` fixes may change results, e.g. new random numbers)."""
        src = sources(policy, ctx, paths, code, filename, select, ignore, preview)
        if code is not None:
            diags = api.lint_text(code, src.name, api.LintOptions(settings=src.settings))
            return {
                "findings": [finding(d) for d in diags],
                "files": 1,
                "summary": summary(diags),
            }
        diags = api.lint_files(list(src.files), src.configs, _RUN, progress=False)
        diags.sort(key=Diagnostic.sort_key)
        return {
            "findings": [finding(d) for d in diags],
            "files": len(src.files),
            "summary": summary(diags),
        }


def add_fix(server: MCPServer, policy: RootsPolicy) -> None:
    """Register `fix`: a diff of the fixes; files change only with `write=true`."""

    @server.tool(
        annotations=ToolAnnotations(
            read_only_hint=False,
            destructive_hint=False,
            idempotent_hint=True,
            open_world_hint=False,
        ),
        structured_output=True,
    )
    @tool_errors
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
        preview: PreviewArg = None,
        ctx: Context | None = None,
    ) -> FixResult:
        """Apply jaxlint's fixes: returns a unified diff and the findings that remain. Files
        change only with `write=true`; inline `code` is never written, its fixed text comes back
        in `code`."""
        from jaxlint.files.result import unified_diff

        src = sources(policy, ctx, paths, code, filename, select, ignore, preview)
        if code is not None:
            options = api.LintOptions(settings=src.settings)
            result = api.fix_text(code, src.name, options, unsafe=unsafe)
            return {
                "diff": unified_diff(code, result.text, src.name),
                "fixed": len(result.fixed),
                "remaining": [finding(d) for d in result.remaining],
                "written": [],
                "code": result.text,
            }
        diff, fixed, written = [], 0, []
        remaining: list[Diagnostic] = []
        files = list(src.files)
        for _, display, out in api.fix_files(files, src.configs, _RUN, unsafe=unsafe, write=write):
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


def add_explain(server: MCPServer, policy: RootsPolicy) -> None:
    """Register `explain`: a rule's documentation, as `jaxlint explain` prints it."""

    @server.tool(annotations=READ_ONLY, structured_output=True)
    @tool_errors
    def explain(
        code: Annotated[
            str, Field(description="rule code (JAX101) or name (host-conversion-of-traced-value)")
        ],
    ) -> ExplainResult:
        """A rule's documentation: what it flags, why it is bad in JAX terms, an example, what
        to use instead, fix safety, its runtime verifier and the template showing the fix."""
        from jaxlint.rules import get_rule

        rule = get_rule(code)
        if rule is None:
            raise ToolError(f"unknown rule {code!r} (the `rules` tool lists them)")
        return {"code": rule.code, "name": rule.name, "text": api.explain(rule.code)}


def add_rules(server: MCPServer, policy: RootsPolicy) -> None:
    """Register `rules`: the rule table, as `jaxlint rules --format json`."""

    @server.tool(annotations=READ_ONLY, structured_output=True)
    @tool_errors
    def rules() -> RulesResult:
        """Every rule: code, name, on by default or opt-in, fix safety, runtime verifier,
        one-line summary and related templates."""
        return {"rules": api.rule_rows()}  # type: ignore[typeddict-item]


def add_template(server: MCPServer, policy: RootsPolicy) -> None:
    """Register `template`: an idiomatic starter program, or the list of them."""

    @server.tool(annotations=READ_ONLY, structured_output=True)
    @tool_errors
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
