"""Plain, immutable values shared by every layer: spans, edits, fixes, diagnostics.

Positions follow the flake8/ruff convention: lines are 1-based, columns 0-based code points.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
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


class FixNotBuilt(LookupError):
    """A fix's edits were asked for after they were dropped (`Fix.detached`): the lint that
    made the fix was not asked to keep them (the CLI keeps them only for the outputs that
    print them), so the caller must lint again with edits wanted."""


EditBuilder = Callable[[], "Iterable[Edit] | None"]


class Fix:
    """A fix: its applicability and message, which are known when the finding is reported,
    and its edits, which may be computed only when asked for (`Fix.lazy`): `check` and the
    editor's diagnostics show whether a finding is fixable without building a single edit;
    `--fix`, `--diff`, the JSON output and a quick fix build the edits they use, once.

    A lazy fix is `certain` when the rule knows the fix exists (the usual case: the edits
    are a function of the finding). An uncertain one (JAX201 offers its fix only when the key
    analysis of the fixed code is clean) may turn out not to exist: `available` says, and
    `engine.resolve_fixes` drops such fixes from the diagnostics before anything counts them.
    """

    __slots__ = ("_build", "_edits", "certain", "message", "safety")

    def __init__(
        self,
        edits: Iterable[Edit] | None,
        safety: Safety,
        message: str = "",
        *,
        build: EditBuilder | None = None,
        certain: bool = True,
    ) -> None:
        self._edits: tuple[Edit, ...] | None = tuple(edits) if edits is not None else None
        self._build = build if edits is None else None
        self.safety: Safety = safety
        self.message = message
        self.certain = certain if edits is None else True

    @classmethod
    def lazy(
        cls, build: EditBuilder, safety: Safety, message: str = "", *, certain: bool = True
    ) -> Fix:
        """A fix whose edits `build()` computes on first use (None from an uncertain builder:
        no fix after all)."""
        return cls(None, safety, message, build=build, certain=certain)

    @classmethod
    def detached(cls, safety: Safety, message: str = "") -> Fix:
        """A fix known to exist whose edits were not kept (a cache entry of a `check`, a
        finding sent back by a worker): `edits` raises `FixNotBuilt`."""
        return cls(None, safety, message)

    def _compute(self) -> tuple[Edit, ...] | None:
        if self._edits is None and self._build is not None:
            build, self._build = self._build, None  # built once; the closure is let go
            made = build()
            if made is None:
                self.certain = False
                self._edits = ()
                return None
            self._edits = tuple(made)
            self.certain = True
        return self._edits

    @property
    def built(self) -> bool:
        """Whether the edits are at hand (computed, or given); a lazy fix not yet built and a
        detached one are not."""
        return self._edits is not None

    @property
    def buildable(self) -> bool:
        """Whether `edits` can be asked for (built, or lazy with its builder)."""
        return self._edits is not None or self._build is not None

    @property
    def available(self) -> bool:
        """Whether the fix exists: always for eager, certain and detached fixes; an
        uncertain lazy one is built to find out."""
        if not self.certain:
            self._compute()  # sets `certain` when the builder made edits
        return self.certain

    @property
    def edits(self) -> tuple[Edit, ...]:
        edits = self._compute()
        if edits is None:
            if self._build is None and self._edits is None:
                raise FixNotBuilt(
                    f"the edits of this fix ({self.message or self.safety}) were not kept"
                )
            return ()
        return edits

    def detach(self) -> Fix | None:
        """This fix without its builder (edits kept when built): small and picklable; None
        when it is an uncertain fix that turns out not to exist."""
        if not self.available:
            return None
        if self._edits is not None or self._build is None:
            return self
        return Fix.detached(self.safety, self.message)

    @property
    def span(self) -> tuple[Position, Position]:
        edits = self.edits
        return min(e.start for e in edits), max(e.end for e in edits)

    @property
    def display_only(self) -> bool:
        return self.safety == DISPLAY_ONLY

    def applies(self, unsafe: bool = False) -> bool:
        """Whether `--fix` (and, with `unsafe`, `--unsafe-fixes`) applies this fix."""
        return self.safety == SAFE or (unsafe and self.safety == UNSAFE)

    def _key(self) -> tuple:
        return (self.edits if self.buildable else None, self.safety, self.message)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Fix):
            return NotImplemented
        if not (self.buildable and other.buildable):  # a detached fix: what is known
            return (self.safety, self.message) == (other.safety, other.message)
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.safety, self.message))

    def __repr__(self) -> str:
        edits = (
            repr(self._edits)
            if self._edits is not None
            else ("<lazy>" if self._build else "<detached>")
        )
        return f"Fix(edits={edits}, safety={self.safety!r}, message={self.message!r})"

    def __reduce__(self) -> tuple:
        # a builder closes over the module's tree and facts: it never leaves the process
        # (a pool worker's findings come back detached unless their edits were built)
        if self.available and self._edits is not None:
            return (Fix, (self._edits, self.safety, self.message))
        return (Fix, (None, self.safety, self.message))


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


def resolve_fixes(diags: list[Diagnostic]) -> list[Diagnostic]:
    """The diagnostics with every uncertain fix decided (kept or dropped), so that whoever
    counts or marks fixable findings sees only fixes that exist. Edits of certain fixes stay
    unbuilt."""
    out = diags
    for i, d in enumerate(diags):
        if d.fix is not None and not d.fix.available:
            if out is diags:
                out = list(diags)
            out[i] = replace(d, fix=None)
    return out


def detach_fixes(diags: list[Diagnostic], keep_edits: bool = False) -> list[Diagnostic]:
    """The diagnostics with their fixes' builders let go (a builder holds the module's tree
    and facts): what a run keeps across files, caches and sends between processes. With
    `keep_edits` every fix is built first (an output that prints the edits); display-only
    suggestions are always built (the text output shows them)."""
    out = []
    for d in diags:
        fix = d.fix
        if fix is not None and not fix.built:
            if keep_edits or fix.display_only:
                fix.edits  # noqa: B018 - builds them
            detached = fix.detach()
            if detached is not fix:
                d = replace(d, fix=detached)
        out.append(d)
    return out
