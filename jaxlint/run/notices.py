"""The warnings `jaxlint check` prints about its inputs, beside the findings: a target JAX
outside the version tables, a preview rule selected without preview mode, and a suppression
comment whose code is in the wrong case. Each is one line on stderr, said once per run."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from jaxlint.core.config import Settings
from jaxlint.core.diagnostic import Diagnostic


def warn(message: str) -> None:
    print(f"jaxlint: warning: {message}", file=sys.stderr)


def note_target_coverage(settings: Sequence[Settings]) -> None:
    """One warning line per distinct target JAX outside the version tables (a project pinned
    to `jax<0.5`): its findings are judged on what the tables know, and the user should know
    that rather than read silence as "nothing removed"."""
    seen: set[str] = set()
    for s in {id(s): s for s in settings}.values():
        note = s.jax_target().coverage_note()
        if note and note not in seen:
            seen.add(note)
            warn(note)


def warn_preview_selections(settings: Sequence[Settings]) -> None:
    """ruff's warning for a preview rule selected by its code without preview mode: the
    selection has no effect, and the user should hear why rather than see silence."""
    seen: set[str] = set()
    for s in {id(s): s for s in settings}.values():
        for code in s.preview_selections():
            if code not in seen:
                seen.add(code)
                warn(
                    f"selection `{code}` has no effect because preview is not enabled"
                    " (use --preview, or preview = true in [tool.jaxlint])"
                )


def warn_miscased(diags: list[Diagnostic], sources: dict) -> None:
    """A warning per finding that a suppression comment names in the wrong case (`# noqa:
    jax101`): codes are case-sensitive, as in ruff and flake8, so the comment did nothing,
    and the flake8 plugin prints the same line (core/suppressions.miscased)."""
    from jaxlint.core.suppressions import miscased, miscased_warning

    by_unit: dict[tuple[str, int | None], list[Diagnostic]] = {}
    for d in diags:
        if d.code not in ("JAX000", "JAX001"):
            by_unit.setdefault((d.path, d.cell), []).append(d)
    cells: dict[str, dict] = {}
    for (path, cell), found in by_unit.items():
        if not os.path.isfile(path):
            continue  # stdin: its text is gone
        if cell is None:
            lines = sources.get(path) or _read_lines(path)
        else:
            if path not in cells:
                from jaxlint.files.notebook import cell_lines

                cells[path] = cell_lines(path)
            lines = cells[path].get((path, cell), [])
        for d, written in miscased(lines, found):
            warn(miscased_warning(path, d, written))


def _read_lines(path: str) -> list[str]:
    from jaxlint.files.read import read_source

    try:
        return read_source(path).text.splitlines()
    except Exception:
        return []


def refuse_empty_selection(settings: Sequence[Settings]) -> None:
    """A selection that enables no rule at all for any file (`--select JAX299`, a code that
    matches nothing; `--select JAX103` without preview) would print "All checks passed!" and
    exit 0 on every run: a CI job configured to enforce something silently enforces nothing
    (new-user review 4). ruff refuses an unknown selector (exit 2); so does this, once the
    warnings above have said why."""
    from jaxlint.core.errors import UsageError

    unique = list({id(s): s for s in settings}.values())
    if unique and all(not s.table_codes() and _inert(s) for s in unique):
        raise UsageError(
            "the rule selection enables no rule, so nothing would be checked (see the "
            "warnings above; `jaxlint rules` lists the codes)"
        )


def _inert(settings: Settings) -> bool:
    """Some `select`/`extend-select` selector enables nothing: it names a preview rule while
    preview is off, or matches no rule at all. An empty selection made on purpose
    (`--ignore ALL`) is left alone."""
    from jaxlint.core.codes import known_codes
    from jaxlint.core.config import matches_no_rule

    if settings.preview_selections():
        return True
    known = known_codes()
    chosen = (settings.select or ()) + settings.extend_select
    chosen += (settings.cli_select or ()) + settings.cli_extend_select
    return any(matches_no_rule(c, known) for c in chosen)


def preview_hint(settings: Sequence[Settings]) -> str:
    """The line a default run ends its text summary with: which rules did not run because
    they are in preview, so that "All checks passed!" is not read as "no sharp bits" (new-user
    review 4, its first problem: key reuse at medium confidence, host conversions and Python
    `if`s on tracers are preview-only, and nothing said so). Empty once the user chose: preview
    mode, or any selection of their own (`select`/`extend-select`, in the configuration or on
    the command line)."""
    from jaxlint.core.codes import PREVIEW

    for s in {id(s): s for s in settings}.values():
        if (
            s.preview
            or s.select is not None
            or s.cli_select is not None
            or s.extend_select
            or s.cli_extend_select
        ):
            return ""
    whole = {e for e in PREVIEW if isinstance(e, str)}
    rules = len(whole)
    parts = len({e[0] for e in PREVIEW if not isinstance(e, str) and e[0] not in whole})
    if not rules and not parts:
        return ""
    more = f", and {parts} more reported only high-confidence findings" if parts else ""
    return (
        f"{rules} rules in preview did not run{more}: `--preview` adds them"
        " (`jaxlint rules` lists them)."
    )
