"""flake8 plugin: `flake8 --select JAX` reports exactly what `jaxlint check` reports.

flake8 hands over the decoded lines; `# noqa` (and `# flake8: noqa`) is flake8's job, so the
engine runs with `noqa=False`: it applies jaxlint's own directives exactly as `check` does
(line, block before a decorated def, `disable-file`) and leaves the findings that only a
`# noqa` covers to flake8, which drops them (or shows them with `--disable-noqa`). Files the
`[tool.jaxlint] exclude` setting excludes are not linted, as with `jaxlint check`. Codes in
suppression comments are case-sensitive in both (`# noqa: jax101` suppresses nothing), and
both print the same warning for such a comment on a finding's line.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator

from jaxlint import __version__


class Plugin:
    name = "jaxlint"
    version = __version__
    # `--jaxlint-preview` (or `jaxlint-preview = true` in flake8's config); None: the
    # `preview` of [tool.jaxlint], as `jaxlint check` reads it
    preview: bool | None = None

    @classmethod
    def add_options(cls, option_manager) -> None:  # noqa: ANN001
        """flake8's option hook: preview mode, named for this plugin (flake8 options share
        one namespace)."""
        option_manager.add_option(
            "--jaxlint-preview",
            action="store_true",
            default=None,
            parse_from_config=True,
            help="jaxlint: also report the rules in preview (as `jaxlint check --preview`)",
        )

    @classmethod
    def parse_options(cls, options) -> None:  # noqa: ANN001
        cls.preview = getattr(options, "jaxlint_preview", None) or None

    def __init__(self, tree: ast.AST, lines: list[str], filename: str) -> None:
        # `tree` must be a parameter: flake8 classifies plugins by parameter names
        self.lines = lines
        self.filename = filename

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        from jaxlint import api
        from jaxlint.core.config import ConfigResolver
        from jaxlint.core.errors import UsageError

        stdin = self.filename in ("stdin", "-")
        path = self.filename if not stdin else os.getcwd()
        try:
            overrides = {"preview": True} if self.preview else None
            settings = ConfigResolver(overrides=overrides).for_path(path)
        except UsageError as exc:  # a broken [tool.jaxlint]: one finding, not a crash
            yield 1, 0, f"JAX000 invalid jaxlint configuration: {exc}", type(self)
            return
        if not stdin and settings.is_excluded(os.path.abspath(path)):
            return
        # the selection comes from [tool.jaxlint], as for `jaxlint check`; flake8 filters further
        options = api.LintOptions(
            settings=settings,
            noqa=False,
            seeds=_seeds(self.filename, settings),
            lazy_fixes=True,  # flake8 shows no fixes: none is decided or built
        )
        diags = api.lint_text("".join(self.lines), self.filename, options)
        _warn_miscased(self.lines, self.filename, diags)
        for d in diags:
            if d.code == "JAX000" and d.message.startswith("could not parse"):
                continue  # flake8 reports E999 itself
            yield d.line, d.col, f"{d.code} {d.message}", type(self)


def _warn_miscased(lines: list[str], filename: str, diags: list) -> None:  # noqa: ANN001
    """The warning `jaxlint check` prints for `# noqa: jax101` (codes are case-sensitive in
    both; flake8 itself then reports the finding, as `check` does)."""
    import sys

    from jaxlint.core.suppressions import miscased, miscased_warning, split_lines

    found = [d for d in diags if d.code not in ("JAX000", "JAX001")]
    if not found:
        return
    for d, written in miscased(split_lines("".join(lines)), found):
        print(f"jaxlint: warning: {miscased_warning(filename, d, written)}", file=sys.stderr)


def _seeds(filename: str, settings):  # noqa: ANN001, ANN202
    """The project index's seeds for this file: the index of its tree is built (or read from
    the cache) once per process, so the plugin reports what `jaxlint check` reports."""
    if filename in ("stdin", "-") or not filename.endswith(".py"):
        return None
    from jaxlint import api

    return api.project_seeds(filename, settings)
