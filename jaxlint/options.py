"""The options of one lint and the result of a fix: plain data that every face builds or reads,
in a module of its own so that a run which lints nothing (every file a cache hit) never imports
the engine or the rules (`selected_codes` reads the code table, not the rule classes)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from jaxlint.core.codes import BY_CODE
from jaxlint.core.config import Settings
from jaxlint.core.diagnostic import Diagnostic

if TYPE_CHECKING:
    from jaxlint.rules import Rule

__all__ = ["FixResult", "LintOptions"]


@dataclass
class LintOptions:
    settings: Settings = field(default_factory=Settings)
    apply_noqa: bool = True  # apply suppression comments at all
    noqa: bool = True  # False: noqa comments are left to the caller (flake8 applies them)
    verbose: bool = False
    # overrides the settings' selection, preview gating included (an API caller's exact list)
    codes: frozenset[str] | None = None
    # the project index's seeds for this file (analysis.project.Seed per top-level function):
    # functions other modules call with traced arguments
    seeds: Mapping[str, object] | None = None
    # True: fixes stay as the rules made them, uncertain ones undecided (the editor's
    # diagnostics and flake8, which never show fixability); False: `lint_text` decides them
    # (`resolve_fixes`), so every fix returned exists. Edits are built on demand either way.
    lazy_fixes: bool = False
    # the text the prefilter reads, when not the linted text: a masked part of a module
    # (incremental.py) is linted by the rules the whole module passes, since a part's
    # analysis may rest on words outside it (a key drawn from in another function)
    prefilter_text: str | None = None

    def selected(self) -> list[type[Rule]]:
        from jaxlint.rules import ALL_RULES

        codes = self.codes if self.codes is not None else self.settings.selected_codes(ALL_RULES)
        return [r for r in ALL_RULES if r.code in codes]

    def selected_codes(self) -> frozenset[str]:
        """The codes `selected()` runs, from the code table alone (no rule is imported)."""
        if self.codes is not None:
            return frozenset(c for c in self.codes if c in BY_CODE)
        return self.settings.table_codes()


@dataclass
class FixResult:
    text: str
    fixed: list[Diagnostic]
    remaining: list[Diagnostic]
    failed: list[Diagnostic] = field(default_factory=list)  # fixes that would break the code
