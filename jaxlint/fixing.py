"""Fixing files on disk: the fix loop's result written atomically, or shown as a diff.

Writes go to a temporary file in the same folder, keep the original's permissions, and
replace it with one `os.replace`, so an interrupted run leaves each file old or new, never
half-written. Encoding, BOM and newlines are those the file was read with.
"""

from __future__ import annotations

import difflib
import os
import stat
import tempfile
from dataclasses import dataclass, field

from jaxlint.diagnostic import Diagnostic
from jaxlint.engine import LintOptions, fix_text, internal_error, read_source
from jaxlint.source import ReadError


@dataclass
class FileFixResult:
    fixed: list[Diagnostic] = field(default_factory=list)
    remaining: list[Diagnostic] = field(default_factory=list)
    failed: list[Diagnostic] = field(default_factory=list)
    diff: str = ""
    readonly: int = 0  # fixes not applied because the file is read-only


def write_atomic(path: str, data: bytes) -> None:
    """Replace `path` with `data` in one rename; the file mode is kept."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        mode = 0o644
    fd, tmp = tempfile.mkstemp(prefix=".jaxlint-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, os.path.realpath(path))
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def unified_diff(old: str, new: str, name: str) -> str:
    if old == new:
        return ""
    return "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True), new.splitlines(keepends=True), fromfile=name, tofile=name
        )
    )


def is_read_only(path: str) -> bool:
    """No write permission for us, or no write bit at all (root may write anything, but a
    0444 file says "do not edit me": ruff, black and editors refuse or ask)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not os.access(path, os.W_OK) or not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)


def fix_file(
    path: str, display: str, options: LintOptions, unsafe: bool, write: bool
) -> FileFixResult:
    if write and is_read_only(path):
        # the fixes are computed (to count them) but nothing is written
        result = fix_file(path, display, options, unsafe=unsafe, write=False)
        if not result.fixed:
            return result
        from jaxlint.engine import lint_file

        return FileFixResult(
            remaining=lint_file(path, options, display), readonly=len(result.fixed)
        )
    if path.endswith(".ipynb"):
        from jaxlint.integrations.notebook import fix_notebook

        return fix_notebook(path, display, options, unsafe=unsafe, write=write)
    try:
        source = read_source(path)
    except ReadError as exc:
        return FileFixResult(remaining=[internal_error(display, f"could not read file: {exc}")])
    result = fix_text(source, display, options, unsafe=unsafe)
    out = FileFixResult(fixed=result.fixed, remaining=result.remaining, failed=result.failed)
    if result.text != source.text:
        out.diff = unified_diff(source.text, result.text, display)
        if write:
            write_atomic(path, source.encode(result.text))
    return out
