"""What the MCP tools take and return, as types the SDK turns into JSON schemas.

The output TypedDicts are the `structuredContent` an agent reads (a finding has the fields of
`jaxlint check --format json`, 1-based lines and columns); the `Annotated` inputs carry the
descriptions an agent sees for each parameter. They live apart from the tools so that one
parameter (`paths`, `select`, `FILE::FUNCTION`, ...) is described once for every tool taking it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import Field
from typing_extensions import TypedDict

from jaxlint.core.diagnostic import Diagnostic

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
    preview: bool  # the whole rule runs only in preview mode
    preview_confidences: list[str]  # confidence levels whose findings need preview
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
PreviewArg = Annotated[
    bool | None,
    Field(
        description="preview mode (as `jaxlint check --preview`): also run the rules in "
        "preview; default: the configuration's `preview`"
    ),
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


def summary(diags: Sequence[Diagnostic]) -> str:
    """The one-line summary of a check, as the CLI's (and where to go next)."""
    if not diags:
        return "All checks passed!"
    safe = sum(1 for d in diags if d.fix is not None and d.fix.safety == "safe")
    unsafe = sum(1 for d in diags if d.fix is not None and d.fix.safety == "unsafe")
    text = f"Found {len(diags)} finding{'s' if len(diags) != 1 else ''}"
    if safe or unsafe:
        text += f" ({safe} with safe fixes, {unsafe} with unsafe fixes: use the `fix` tool)"
    return text + "."
