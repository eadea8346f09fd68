"""flake8 plugin: `flake8 --select JAX` reports exactly what `jaxlint check` reports.

flake8 hands over the decoded lines; noqa is flake8's job, so suppressions are not applied
here (except `# jaxlint: disable=`, which flake8 does not know).
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator

from jaxlint import __version__


class Plugin:
    name = "jaxlint"
    version = __version__

    def __init__(self, tree: ast.AST, lines: list[str], filename: str) -> None:
        # `tree` must be a parameter: flake8 classifies plugins by parameter names
        self.lines = lines
        self.filename = filename

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        from jaxlint.config import ConfigResolver
        from jaxlint.engine import LintOptions, lint_text
        from jaxlint.suppressions import collect

        path = self.filename if self.filename not in ("stdin", "-") else os.getcwd()
        settings = ConfigResolver().for_path(path)
        # the selection comes from [tool.jaxlint], as for `jaxlint check`; flake8 filters further
        options = LintOptions(
            settings=settings, apply_noqa=False, seeds=_seeds(self.filename, settings)
        )
        text = "".join(self.lines)
        diags = lint_text(text, self.filename, options)
        sup = collect(text.splitlines())
        for d in diags:
            if d.code == "JAX000" and d.message.startswith("could not parse"):
                continue  # flake8 reports E999 itself
            if sup.ranges or any(c for c in sup.lines.values()):
                if _disabled(sup, d, self.lines):
                    continue
            yield d.line, d.col, f"{d.code} {d.message}", type(self)


def _seeds(filename: str, settings):  # noqa: ANN001, ANN202
    """The project index's seeds for this file: the index of its project is built (or read
    from the cache) once per process, so the plugin reports what `jaxlint check` reports."""
    if filename in ("stdin", "-") or not filename.endswith(".py"):
        return None
    if os.environ.get("JAXLINT_NO_PROJECT_INDEX", "") not in ("", "0"):
        return None
    try:
        from jaxlint.project_index import index_for_file

        index = index_for_file(filename, settings)
        return index.seeds_for(filename) if index is not None else None
    except Exception:  # the cross-module facts are a bonus; never cost the file's findings
        return None


def _disabled(sup, d, lines) -> bool:  # noqa: ANN001
    """Only `# jaxlint: disable=` comments; flake8 applies `# noqa` itself."""
    line_text = lines[d.line - 1] if 0 < d.line <= len(lines) else ""
    if "jaxlint:" in line_text and sup.suppresses(d):
        return True
    return any(
        a <= d.line <= b and any(d.code.startswith(c) for c in cs) for a, b, cs in sup.ranges
    )
