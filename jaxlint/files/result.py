"""What fixing one file produced (fixed, remaining, failed, the diff), shared by the file
driver and the notebook format so that neither imports the other's module for it."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from jaxlint.core.diagnostic import Diagnostic


@dataclass
class FileFixResult:
    fixed: list[Diagnostic] = field(default_factory=list)
    remaining: list[Diagnostic] = field(default_factory=list)
    failed: list[Diagnostic] = field(default_factory=list)
    diff: str = ""
    readonly: int = 0  # fixes not applied because the file is read-only
    written: bytes | None = None  # what was written back (the cache keys the new bytes)


def unified_diff(old: str, new: str, name: str) -> str:
    if old == new:
        return ""
    return "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True), new.splitlines(keepends=True), fromfile=name, tofile=name
        )
    )
