"""The library under every face: lint files or a text, fix, explain, plan a verify.

The CLI (`commands`), the language server (`integrations.lsp`), the MCP server
(`integrations.mcp`), the flake8 plugin (`integrations.flake8`) and `jaxlint verify`
(`verify.driver`) all call these functions, and none of them reaches behind it into the engine,
the file driver, the parallel runner or the project index (`tests/test_layers.py` checks it).
Why one facade: each face used to assemble those layers itself, so five entry points built the
project index five ways, MCP imported private CLI functions, and verify analysed again the file
its own lint had just analysed. A behaviour every face shares (which tree a file's cross-module
facts come from, how a fix is validated, what `explain` prints) is decided here once.

The contract (docs/api.md):
- Results are the same bytes whichever face asks: a face chooses *what* to run (which files,
  which settings, lazy fixes or not), never *how* (the index, the cache, the fix loop).
- Nothing here prints or exits: problems in the user's code are JAX000 diagnostics, a usage
  problem is `core.errors.UsageError`, a failed sandbox run is `SandboxFailed`.
- Nothing here imports JAX; `plan_verify` and the sandbox helpers import the planner and the
  sandbox launcher lazily, so `import jaxlint.api` stays as cheap as `jaxlint check`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from jaxlint.core.config import ConfigResolver, Settings
from jaxlint.core.diagnostic import Diagnostic
from jaxlint.core.errors import UsageError
from jaxlint.core.source import SourceText
from jaxlint.files.result import FileFixResult
from jaxlint.options import FixResult, LintOptions

if TYPE_CHECKING:
    from jaxlint.analysis import ModuleFacts
    from jaxlint.analysis.project import ProjectIndex
    from jaxlint.incremental import IncrementalLinter
    from jaxlint.project_index import ProjectIndexes
    from jaxlint.run.cache import Cache
    from jaxlint.verify.plan import InputOptions

__all__ = [
    "Analysis",
    "ConfigResolver",
    "Diagnostic",
    "FileFixResult",
    "FixResult",
    "IncrementalLinter",
    "LintOptions",
    "RuleRow",
    "RunOptions",
    "SandboxFailed",
    "Settings",
    "TOOL_TIMEOUT",
    "TreeSummary",
    "add_noqa_notebook",
    "analyse_text",
    "build_tree_index",
    "explain",
    "fix_cells",
    "fix_files",
    "fix_notebook_text",
    "fix_text",
    "function_ref",
    "lint_cells",
    "lint_files",
    "lint_notebook_text",
    "lint_text",
    "notebook_cell_lines",
    "plan_verify",
    "project_index_enabled",
    "project_seeds",
    "rule_rows",
    "run_sandboxed",
    "summarize_for_tree",
    "tree_root",
    "update_tree_index",
]

# the cross-module facts a file receives from its project's index (`analysis.project.Seed` per
# top-level function, plus key helpers and static helpers under their sentinel keys)
Seeds = Mapping[str, object]


# -- options ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RunOptions:
    """How a run over many files goes: what `jaxlint check`'s flags say beyond the settings.

    The field names are the CLI's (`argparse` destinations), so `from_namespace` is a copy and
    the runner reads either; MCP and tests build one directly."""

    paths: Sequence[str] | None = None  # the paths named (the project roots come from them)
    jobs: int | None = None  # worker processes; None: every core
    no_cache: bool = False
    cache_dir: str | None = None
    no_project_index: bool = False
    verbose: bool = False
    format: str = "text"  # "json" keeps every fix's edits (the output prints them)
    statistics: bool = False
    fix: bool = False  # with `diff`: a fixing run uses the cache but does not create it
    diff: bool = False

    @classmethod
    def from_namespace(cls, args: object) -> RunOptions:
        """The run options of parsed `jaxlint check` arguments (missing ones: the defaults)."""
        names = cls.__dataclass_fields__
        return cls(**{n: getattr(args, n) for n in names if getattr(args, n, None) is not None})


# -- the project index: one builder, one root per tree -------------------------------------------


def project_index_enabled() -> bool:
    """False when `JAXLINT_NO_PROJECT_INDEX` is set (the faces without a flag for it: the
    editor, flake8, verify), as `jaxlint check --no-project-index`."""
    return os.environ.get("JAXLINT_NO_PROJECT_INDEX", "") in ("", "0")


def tree_root(path: str) -> str:
    """The root of the tree `path` belongs to: the nearest project marker above it, else the
    folder above its outermost package. Each tree resolves its own modules, so a file gets the
    same cross-module facts linted alone, beside other trees, or from the editor."""
    from jaxlint.project_index import package_top, project_root

    return project_root([path]) or package_top(path)


def project_seeds(path: str, settings: Settings, *, enabled: bool | None = None) -> Seeds | None:
    """The project index's facts for one file linted on its own (stdin, flake8, verify): its
    tree's index is built (or read from the cache) once per process and tree. None when off
    (`enabled`, default: the environment) or when the index fails: cross-module facts are a
    bonus and never cost the file's own findings."""
    if not (project_index_enabled() if enabled is None else enabled):
        return None
    try:
        from jaxlint.project_index import index_for_file

        return index_for_file(path, settings).seeds_for(path) or None
    except Exception:
        return None


def build_tree_index(root: str, path: str, settings: Settings) -> ProjectIndex:
    """A fresh index of the tree at `root` (holding `path`), from the result cache where one
    exists, never creating one: the editor builds it in the background and then keeps it up
    to date from its buffers (`update_tree_index`)."""
    from jaxlint.project_index import build_for_root

    return build_for_root(root, path, settings)


@dataclass(frozen=True)
class TreeSummary:
    """One module's summary for its tree's index, computed apart from the index update
    (`summarize_for_tree`): the editor computes it off the lint thread."""

    path: str  # absolute
    text: str
    names: tuple[str, ...]  # its module names in the tree (none: outside any package)
    is_package: bool
    summary: object | None  # analysis.project_summary.ModuleSummary, or None: nothing to say


def summarize_for_tree(
    path: str, text: str, settings: Settings, facts: ModuleFacts | None = None
) -> TreeSummary:
    """The summary `update_tree_index` records for `text` as the module at `path`: from the
    facts of its unseeded lint when given (no second analysis), else from the text (a parse
    and an analysis). Reads nothing but its arguments and the tree's layout."""
    from jaxlint.analysis.project import (
        module_names,
        needs_summary,
        summarize,
        uses_random,
        uses_transform,
    )
    from jaxlint.project_index import summarize_text

    path = os.path.abspath(path)
    names, is_package = module_names(path, tree_root(path))
    summary = None
    jd = settings.jit_decorators
    if names and needs_summary(path, text, jd, linted=True):
        if facts is not None:
            used = uses_transform(text, jd)
            summary = summarize(facts, names[0], is_package, used, uses_random(text))
        else:
            summary = summarize_text(text, path, names[0], is_package, jd)
    return TreeSummary(path, text, tuple(names), is_package, summary)


def update_tree_index(
    project: ProjectIndex,
    path: str,
    text: str,
    settings: Settings,
    facts: ModuleFacts | None = None,
    summarized: TreeSummary | None = None,
) -> frozenset[str]:
    """Re-summarise one module of `project` from `text` (an editor buffer), from the facts of
    its unseeded lint when given (no second analysis), or take `summarized` (its
    `summarize_for_tree`); returns the files whose seeds changed (the module itself too: its
    key-helper seeds come from its own imports)."""
    path = os.path.abspath(path)
    if summarized is None or summarized.path != path or summarized.text != text:
        summarized = summarize_for_tree(path, text, settings, facts)
    before = project.seeds()
    if summarized.names:
        loader = getattr(project, "loader", None)
        if loader is not None:  # chains read the buffer, not the file on disk
            loader.set_text(path, text)
        project.add_module(path, list(summarized.names), summarized.summary)  # type: ignore[arg-type]
    after = project.seeds()
    return frozenset(p for p in set(before) | set(after) if before.get(p) != after.get(p))


def _run_index(
    files: list[tuple[str, str]],
    resolver: ConfigResolver,
    run: RunOptions,
    cache: Cache | None,
    defer: bool = False,
) -> tuple[ProjectIndex | ProjectIndexes | None, dict]:
    """The index of a run's files, one per tree (`project_index.project_groups`: each named
    path's root is the one linting it alone would use), or None when off. With `defer`, the
    summary jobs of linted files left to their lint (it computes the same facts)."""
    if run.no_project_index or not files:
        return None, {}
    from jaxlint.project_index import (
        ProjectIndexes,
        SummaryJobs,
        build_index_deferred,
        project_files,
        project_groups,
    )
    from jaxlint.run.parallel import jobs_from

    paths = [p for p in (run.paths or ["."]) if p != "-"] or ["."]
    groups = project_groups(paths, [p for p, _ in files])
    built = []
    # every linted file's summaries come from its lint, in each tree that indexes it (a
    # tree's index may hold files linted as part of another tree)
    linted_all = {os.path.abspath(p) for p, _ in files if p.endswith(".py")}
    jobs: dict[str, list] = {}
    for group in groups:
        index_files = project_files(group.root, group.linted, resolver.for_path)
        callers = {os.path.abspath(p) for p in group.linted if p.endswith(".py")}
        index, deferred = build_index_deferred(
            index_files,
            group.root,
            lambda p: resolver.for_path(p).jit_decorators,
            cache,
            jobs_from(run),
            defer=linted_all if defer else set(),
            linted=callers,  # summarised as callers of key helpers (the fix path too)
            seeds_only=defer,  # the lint asks for seeds only: the cached join will do
        )
        built.append((group, index))
        for path, job in deferred.items():
            jobs.setdefault(path, []).append((group.root, job, path in callers))
    # one tree (the usual run): its index itself; several: each file asks its own
    project = built[0][1] if len(built) == 1 else ProjectIndexes(built)
    deferred_all: dict = {}
    for path, found in jobs.items():
        if len(found) == 1 and found[0][2]:
            deferred_all[path] = found[0][1]  # only the tree it is linted in
        else:
            deferred_all[path] = SummaryJobs(tuple(found))
    return project, deferred_all


# -- lint and fix -------------------------------------------------------------------------------


@dataclass
class Analysis:
    """One module's lint and the facts it was computed from: what a face that goes on working
    on the module (the editor's index update, verify's planner) needs, so it never analyses the
    same text again. `facts` is None when the text did not parse."""

    filename: str
    source: SourceText
    options: LintOptions
    diagnostics: list[Diagnostic]
    facts: ModuleFacts | None

    @property
    def settings(self) -> Settings:
        return self.options.settings

    @property
    def seeds(self) -> Seeds | None:
        return self.options.seeds


def lint_text(
    text: str | SourceText, filename: str = "<stdin>", options: LintOptions | None = None
) -> list[Diagnostic]:
    """Lint one module's text as `filename` (the name decides per-file ignores and is the
    diagnostics' path). Never raises for bad input: a problem becomes a JAX000."""
    from jaxlint.engine import lint_text as _lint_text

    return _lint_text(text, filename, options)


def analyse_text(
    text: str | SourceText,
    filename: str = "<stdin>",
    options: LintOptions | None = None,
    *,
    keep_facts: bool = True,
) -> Analysis:
    """`lint_text`, keeping the module's facts (`keep_facts`) for the caller's next step."""
    from jaxlint.engine import lint_text as _lint_text

    options = options or LintOptions()
    source = text if isinstance(text, SourceText) else SourceText(text)
    facts: list[ModuleFacts] | None = [] if keep_facts else None
    diags = _lint_text(source, filename, options, facts)
    return Analysis(filename, source, options, diags, facts[0] if facts else None)


def fix_text(
    text: str | SourceText,
    filename: str = "<stdin>",
    options: LintOptions | None = None,
    unsafe: bool = False,
) -> FixResult:
    """Apply the fixes to a fixed point (unsafe ones too with `unsafe`); each round re-lints
    and refuses a fix that breaks parsing or leaves its own finding."""
    from jaxlint.engine import fix_text as _fix_text

    return _fix_text(text, filename, options, unsafe=unsafe)


def lint_files(
    files: list[tuple[str, str]],
    resolver: ConfigResolver,
    run: RunOptions,
    progress: bool = True,
) -> list[Diagnostic]:
    """Lint (real path, displayed path) pairs: cache hits first, the rest in a process pool,
    with each tree's project index (built here; the linted files' summaries come from their
    own lint). `progress`: a progress bar on a terminal."""
    from jaxlint.run.parallel import lint_files as run_lint_files

    def index(cache: Cache | None) -> tuple[Any, dict]:
        return _run_index(files, resolver, run, cache, defer=True)

    return run_lint_files(files, resolver, run, progress=progress, index=index)  # type: ignore[arg-type]


def fix_files(
    files: list[tuple[str, str]],
    resolver: ConfigResolver,
    run: RunOptions,
    *,
    unsafe: bool = False,
    write: bool = False,
) -> Iterator[tuple[str, str, FileFixResult]]:
    """Fix each file with its tree's project index, one at a time, as (path, display, result):
    a face prints each diff as it comes. Files whose cached findings hold no fix to apply are
    skipped; `write` writes the fixed files (atomically). The remaining findings keep their
    fixes' edits only for `run.format == "json"` (an output that prints them)."""
    from jaxlint.run.parallel import Salts, fix_file_cached, open_cache

    cache, salts = open_cache(run, resolver), Salts()  # type: ignore[arg-type]
    project, _ = _run_index(files, resolver, run, cache)
    for path, display in files:
        options = LintOptions(settings=resolver.for_path(path), verbose=run.verbose)
        if project is not None:
            options.seeds = project.seeds_for(path) or None
        result = fix_file_cached(
            cache,
            path,
            display,
            options,
            unsafe=unsafe,
            write=write,
            salts=salts,
            edits=run.format == "json",
        )
        yield path, display, result


# -- notebooks (the same engine under the cells) ----------------------------------------------


def lint_notebook_text(text: str, options: LintOptions, display: str) -> list[Diagnostic]:
    """Lint a notebook's JSON text: its code cells as one module, positions per cell."""
    from jaxlint.files.notebook import lint_notebook_text as lint

    return lint(text, options, display)


def fix_notebook_text(
    text: str, display: str, options: LintOptions, unsafe: bool = False
) -> tuple[FileFixResult, str]:
    """Fix a notebook's JSON text: (the result, the new JSON, identical elsewhere)."""
    from jaxlint.files.notebook import fix_notebook_text as fix

    return fix(text, display, options, unsafe=unsafe)


def lint_cells(sources: list[str], options: LintOptions, display: str) -> list[Diagnostic]:
    """Lint a notebook given as its code cells' texts (the editor's notebook documents)."""
    from jaxlint.files.notebook import lint_cells as lint

    return lint(sources, options, display)


def fix_cells(sources: list[str], options: LintOptions, display: str) -> list[str]:
    """Every safe fix of a notebook given as cell texts: the cells' new texts."""
    from jaxlint.files.notebook import fix_cells as fix

    return fix(sources, options, display)


def add_noqa_notebook(text: str, options: LintOptions, display: str) -> tuple[str, int, int]:
    """`# noqa: CODES` on the cell lines with findings: (new JSON, added, findings left)."""
    from jaxlint.files.notebook import add_noqa_notebook as add

    return add(text, options, display)


def notebook_cell_lines(path: str) -> dict[tuple[str, int], list[str]]:
    """Each code cell's lines of the notebook at `path`, for showing findings in context."""
    from jaxlint.files.notebook import cell_lines

    return cell_lines(path)


# -- rules and explain ---------------------------------------------------------------------------


class RuleRow(TypedDict):
    """One rule as `jaxlint rules --format json` and the MCP `rules` tool list it."""

    code: str
    name: str
    default: bool
    preview: bool
    preview_confidences: list[str]
    fix: str
    fix_availability: str
    verifier: str
    tier: str
    summary: str
    templates: list[str]


def rule_rows() -> list[RuleRow]:
    """Every rule, opt-in and preview ones included, in code order."""
    from jaxlint.core.codes import is_preview_rule, preview_confidences
    from jaxlint.rules import ALL_RULES

    return [
        {
            "code": r.code,
            "name": r.name,
            "default": r.default,
            "preview": is_preview_rule(r.code),
            "preview_confidences": list(preview_confidences(r.code)),
            "fix": r.fix_safety or "none",
            "fix_availability": r.fix_availability,
            "verifier": r.verifier or "none",
            "tier": r.tier,
            "summary": r.summary(),
            "templates": list(r.templates),
        }
        for r in ALL_RULES
    ]


JAX000_DOC = """JAX000 (internal-error)
=======================

Not a rule: jaxlint reports `JAX000` for a file it could not read (missing, unreadable,
binary or undecodable), could not parse (a syntax error, at the parser's position), or could
not analyse (nested too deeply, or a rule failed: that one asks for a bug report and the
other rules still report). It is always reported, whatever the selection, as ruff reports
syntax errors; fix the file, or exclude it.

`--verbose` adds the traceback of an internal failure.
"""


def _rule_hint(word: str) -> str:
    """`; did you mean JAX601?` for a near-miss code or rule name, else nothing."""
    import difflib

    from jaxlint.rules import ALL_RULES

    names = [r.code for r in ALL_RULES] + [r.name for r in ALL_RULES]
    close = difflib.get_close_matches(word.strip(), names, n=1, cutoff=0.75)
    if not close:
        close = difflib.get_close_matches(word.strip().upper(), names, n=1, cutoff=0.75)
    return f"; did you mean `{close[0]}`?" if close else ""


def explain(code: str) -> str:
    """A rule's documentation as `jaxlint explain` prints it, by code (`JAX101`, `101`) or
    name; JAX000 too. An unknown word is a `UsageError` that names the closest rule."""
    from jaxlint.rules import get_rule
    from jaxlint.rules.docs import explain_text as rule_text

    if code.strip().upper() in ("JAX000", "INTERNAL-ERROR"):
        return JAX000_DOC
    rule = get_rule(code)
    if rule is None and code.strip().isdigit():  # `jaxlint explain 601`
        rule = get_rule(f"JAX{code.strip()}")
    if rule is None:
        raise UsageError(f"unknown rule `{code}`{_rule_hint(code)} (see `jaxlint rules`)")
    return rule_text(rule)


# -- verify: plan from the lint's facts, run in the sandbox ---------------------------------------


def plan_verify(
    analysis: Analysis,
    diagnostics: Sequence[Diagnostic] | None = None,
    inputs: InputOptions | None = None,
    *,
    with_fixes: bool = True,
    context: Sequence[Diagnostic] | None = None,
) -> list[dict[str, Any]]:
    """`jaxlint verify`'s jobs for `diagnostics` (default: all of the analysis's), planned from
    the facts the lint computed (same tree, same seeds: the planner does not parse or analyse
    the module again). `context` is every finding of the file, so a check stopped by one
    outside the selection can say so; `with_fixes` also runs each finding's fixed code."""
    from jaxlint.rules import rules_by_code
    from jaxlint.verify.plan import plan_file

    return plan_file(
        analysis.filename,
        analysis.source,
        analysis.diagnostics if diagnostics is None else diagnostics,
        analysis.settings,
        rules_by_code(),
        inputs,
        with_fixes=with_fixes,
        context=context,
        seeds=analysis.seeds,
        facts=analysis.facts,
    )


TOOL_TIMEOUT = 120.0  # seconds a toolbox run (probe, bench, recompile, env) may take


class SandboxFailed(Exception):
    """The sandboxed run produced no result (timeout, crash, exception in the user's code);
    `outcome` holds the reason and stderr's last lines."""

    def __init__(self, outcome: dict[str, Any]) -> None:
        super().__init__(outcome.get("reason", "failed"))
        self.outcome = outcome


def function_ref(ref: str, name: str | None = None) -> str:
    """Validate `PATH::FUNC` (or PATH and `name`) without importing the user's code: the
    canonical `REALPATH::QUALNAME` the sandbox loads."""
    from jaxlint.runtime.toolbox.loader import split_ref

    path, qualname = split_ref(ref, name)
    if not path.is_file():
        raise UsageError(f"no such file: {str(path)!r}")
    return f"{path.resolve()}::{qualname}"


def run_sandboxed(
    target: str,
    payload: dict[str, Any],
    timeout: float,
    memory_mb: int | None = None,
    echo: bool = False,
) -> dict[str, Any]:
    """Run `module:function` on `payload` in the JAX sandbox (a subprocess with `timeout`
    seconds and `memory_mb` of address space): its result. A usage problem the child found
    (bad input specs, JAX missing) is a `UsageError`; any other failure `SandboxFailed`."""
    from jaxlint.runtime.sandbox import run_isolated
    from jaxlint.runtime.toolbox.common import check_timeout

    check_timeout(timeout)
    outcome = run_isolated(target, payload, timeout=timeout, memory_mb=memory_mb, echo_stderr=echo)
    if outcome["ok"]:
        return outcome["result"]
    error = outcome.get("error") or {}
    if error.get("type") in ("UsageError", "JaxMissingError"):
        raise UsageError(error.get("message", "usage error"))
    raise SandboxFailed(outcome)


def __getattr__(name: str) -> Any:
    """`api.IncrementalLinter`, imported when first asked for: it imports the engine and the
    rules, which a run whose files are all cache hits never needs."""
    if name == "IncrementalLinter":
        from jaxlint.incremental import IncrementalLinter

        return IncrementalLinter
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
