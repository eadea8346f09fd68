"""One file on disk: lint it, or fix it and write it back (or show the diff).

The engine sees text only; this driver reads each file once (or takes the bytes a caller
already read for its cache key, so the bytes keyed are the bytes analysed), decodes it, sends a
notebook through `files.notebook`, and turns anything that goes wrong into diagnostics. Fixed
files are written with `files.write.write_atomic` (same folder, permissions kept, one
`os.replace`), in the encoding, BOM and newlines they were read with.
"""

from __future__ import annotations

import traceback
from dataclasses import replace

from jaxlint.analysis import ModuleFacts
from jaxlint.core.diagnostic import Diagnostic, internal_error
from jaxlint.core.source import ReadError, SourceText, decode_source
from jaxlint.engine import LintOptions, fix_text, lint_text
from jaxlint.files.notebook import fix_notebook_text, lint_notebook_text
from jaxlint.files.read import read_bytes
from jaxlint.files.result import FileFixResult, unified_diff
from jaxlint.files.write import is_read_only, write_atomic

__all__ = ["FileFixResult", "fix_file", "lint_file", "unified_diff"]


def _is_notebook(path: str) -> bool:
    return path.endswith(".ipynb")


def _decoded(path: str, display: str, data: bytes | None) -> SourceText | Diagnostic:
    """The file's text (from `data` when given), or the JAX000 that says why there is none."""
    what = "notebook" if _is_notebook(path) else "file"
    try:
        if data is None:
            data = read_bytes(path)
        return decode_source(data)
    except OSError as exc:
        reason = str(exc) if _is_notebook(path) else exc.strerror or str(exc)
        return internal_error(display, f"could not read {what}: {reason}")
    except ReadError as exc:
        return internal_error(display, f"could not read {what}: {exc}")


def lint_file(
    path: str,
    options: LintOptions,
    display: str | None = None,
    facts_out: list[ModuleFacts] | None = None,
    data: bytes | None = None,
) -> list[Diagnostic]:
    """Lint one file (its bytes `data` when the caller read them); whatever happens, the
    answer is diagnostics, never an exception."""
    display = display or path
    try:
        return _lint_file(path, options, display, facts_out, data)
    except (RecursionError, MemoryError) as exc:
        return [
            internal_error(
                display,
                f"could not analyse: {type(exc).__name__} (the file is too deep or too large)",
            )
        ]
    except Exception as exc:
        notes = (traceback.format_exc(),) if options.verbose else ()
        msg = f"internal error: {type(exc).__name__}: {exc}; please report this bug at https://github.com/jaxlint-sharp/jaxlint/issues"
        return [replace(internal_error(display, msg), notes=notes)]


def _lint_file(
    path: str,
    options: LintOptions,
    display: str,
    facts_out: list[ModuleFacts] | None,
    data: bytes | None,
) -> list[Diagnostic]:
    source = _decoded(path, display, data)
    if isinstance(source, Diagnostic):
        return [source]
    if _is_notebook(path):
        return lint_notebook_text(source.text, options, display)
    return lint_text(source, display, options, facts_out)


def fix_file(
    path: str,
    display: str,
    options: LintOptions,
    unsafe: bool,
    write: bool,
    data: bytes | None = None,
) -> FileFixResult:
    """Fix one file (its bytes `data` when the caller read them); with `write`, write the
    fixed text back unless the file is read-only (then the fixes are counted, not applied)."""
    source = _decoded(path, display, data)
    if isinstance(source, Diagnostic):
        return FileFixResult(remaining=[source])
    if _is_notebook(path):
        out, text = fix_notebook_text(source.text, display, options, unsafe)
        new_bytes = text.encode("utf-8") if text != source.text else None
    else:
        result = fix_text(source, display, options, unsafe=unsafe)
        out = FileFixResult(fixed=result.fixed, remaining=result.remaining, failed=result.failed)
        new_bytes = None
        if result.text != source.text:
            out.diff = unified_diff(source.text, result.text, display)
            new_bytes = source.encode(result.text)
    if not write or new_bytes is None:
        return out
    if is_read_only(path):
        if not out.fixed:
            return out
        # the fixes are computed (to count them) but nothing is written
        remaining = lint_file(path, options, display, data=data)
        return FileFixResult(remaining=remaining, readonly=len(out.fixed))
    write_atomic(path, new_bytes)
    out.written = new_bytes
    return out
