"""Plain, immutable values shared by every layer: spans, edits, fixes, diagnostics.

Positions follow the flake8/ruff convention: lines are 1-based, columns 0-based code points.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

# How a fix may be applied (ruff's `Applicability { DisplayOnly, Unsafe, Safe }`):
# - "safe": `--fix` applies it; it relies only on facts the analysis proves.
# - "unsafe": only with `--unsafe-fixes` (it may change behaviour, e.g. new random numbers).
# - "display-only": a suggestion that changes semantics (`float(x)` -> `x.astype(float)`):
#   shown to the user ("Suggested fix"), never applied by `--fix`/`--unsafe-fixes`, and not
#   offered as an LSP quick fix.
# The name `Safety` (and `Fix.safety`) is kept for compatibility; `Applicability` is an alias.
Safety = Literal["safe", "unsafe", "display-only"]
Applicability = Safety
SAFE: Safety = "safe"
UNSAFE: Safety = "unsafe"
DISPLAY_ONLY: Safety = "display-only"
APPLICABILITIES: tuple[Safety, ...] = (SAFE, UNSAFE, DISPLAY_ONLY)

# Whether a rule can offer a fix (ruff's `FixAvailability`): never, for some findings, always.
FixAvailability = Literal["none", "sometimes", "always"]
# how sure the analysis is (pylint's confidence): "high" for facts read from the code itself
# (a parameter of a jitted function), "medium" for facts carried through a helper call or a
# Module's `__call__` (the message names the chain)
Confidence = Literal["high", "medium"]
CONFIDENCE_RANK = {"medium": 1, "high": 2}


@dataclass(frozen=True, slots=True, order=True)
class Position:
    line: int
    col: int


@dataclass(frozen=True, slots=True)
class Span:
    start: Position
    end: Position

    @classmethod
    def of(cls, line: int, col: int, end_line: int, end_col: int) -> Span:
        return cls(Position(line, col), Position(end_line, end_col))


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace the text between `start` and `end` (exclusive) with `content`."""

    start: Position
    end: Position
    content: str


@dataclass(frozen=True, slots=True)
class Fix:
    edits: tuple[Edit, ...]
    safety: Safety
    message: str = ""

    @property
    def span(self) -> tuple[Position, Position]:
        return min(e.start for e in self.edits), max(e.end for e in self.edits)

    @property
    def display_only(self) -> bool:
        return self.safety == DISPLAY_ONLY

    def applies(self, unsafe: bool = False) -> bool:
        """Whether `--fix` (and, with `unsafe`, `--unsafe-fixes`) applies this fix."""
        return self.safety == SAFE or (unsafe and self.safety == UNSAFE)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    message: str
    path: str
    span: Span
    name: str = ""
    fix: Fix | None = None
    cell: int | None = None  # notebook cell index (0-based) when linting .ipynb
    severity: Literal["error", "warning", "info"] = "warning"
    notes: tuple[str, ...] = field(default=())
    confidence: Confidence = "high"

    @property
    def line(self) -> int:
        return self.span.start.line

    @property
    def col(self) -> int:
        return self.span.start.col

    def with_path(self, path: str) -> Diagnostic:
        return replace(self, path=path)

    def sort_key(self) -> tuple:
        return (self.path, self.cell or 0, self.span.start, self.code)


def internal_error(path: str, message: str, line: int = 1, col: int = 0) -> Diagnostic:
    return Diagnostic(
        code="JAX000",
        message=message,
        path=path,
        span=Span.of(line, col, line, col),
        name="internal-error",
        severity="error",
    )
