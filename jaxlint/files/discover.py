"""Which files a run lints: the paths given, folders walked, excludes and `.gitignore` applied.

As in ruff:
- a file or folder named on the command line is linted even when `exclude` matches it, unless
  `force-exclude` is set (pre-commit names every staged file; the excludes must still apply);
- inside a git work tree, `.gitignore` files (every level, deeper ones win), and
  `.git/info/exclude` are respected while walking, unless `respect-gitignore = false` /
  `--no-respect-gitignore`; files named explicitly are not filtered by them;
- a path that does not exist, or a folder that cannot be read, is a `JAX000` finding for that
  path while the other paths are still linted (ruff's E902). Unreadable files are passed on
  and become `JAX000 could not read file` when linted.

Display paths are normalised (`./model.py` -> `model.py`, as ruff prints them).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from jaxlint.core.config import Settings
from jaxlint.core.paths import below

PYTHON_SUFFIXES = (".py", ".pyi", ".ipynb")


@dataclass
class Discovery:
    files: list[tuple[str, str]] = field(default_factory=list)  # (path, display)
    errors: list[tuple[str, str]] = field(default_factory=list)  # (display, message): JAX000


def _warn(message: str) -> None:
    print(f"jaxlint: warning: {message}", file=sys.stderr)


def display_path(path: str) -> str:
    """How a path is shown, as ruff shows it: `./a/b.py` -> `a/b.py`, and an absolute path
    below the current folder relative to it; anything else as given (normalised)."""
    path = os.path.normpath(path)
    if os.path.isabs(path):
        if os.name == "posix":  # a warm run displays every file of the project
            rel = below(path, os.getcwd())
            return path if rel is None else rel
        try:
            rel = os.path.relpath(path)
        except ValueError:  # another drive
            return path
        if not rel.startswith(".."):
            return rel
    return path


def discover(
    paths: Iterable[str],
    settings_for: Callable[[str], Settings],
    warn: Callable[[str], None] | None = None,
) -> Discovery:
    warn = warn or _warn
    out = Discovery()
    seen: set[str] = set()
    real_folders: dict[str, str] = {}  # a folder's real path, for the named files in it
    for given in paths:
        if not os.path.lexists(given):
            out.errors.append((display_path(given), "could not read: No such file or directory"))
            continue
        settings = settings_for(given)
        if settings.force_exclude and settings.is_excluded(given):
            continue
        if os.path.isfile(given) or (os.path.islink(given) and not os.path.isdir(given)):
            if os.path.islink(given):
                real = os.path.realpath(given)
                if not os.path.exists(real):
                    warn(f"{given}: broken symlink; skipped")
                    continue
            else:
                # not a link: its real path is its folder's, joined (as `_walk` keys them;
                # `realpath` per file resolves every component of the path again)
                folder, base = os.path.split(os.path.abspath(given))
                real_folder = real_folders.get(folder)
                if real_folder is None:
                    real_folder = real_folders[folder] = os.path.realpath(folder)
                real = os.path.join(real_folder, base)
            if real not in seen:
                seen.add(real)
                out.files.append((given, display_path(given)))
            continue
        _walk(given, settings, settings_for, out, seen, warn)
    return out


def _walk(
    given: str,
    given_settings: Settings,
    settings_for: Callable[[str], Settings],
    out: Discovery,
    seen: set[str],
    warn: Callable[[str], None],
) -> None:
    # patterns that match the folder the user named do not apply below it (ruff lints it)
    spare = frozenset(given_settings.excluding(given))
    ignores = GitIgnores(given) if given_settings.respect_gitignore else None

    def onerror(exc: OSError) -> None:
        name = exc.filename or given
        out.errors.append((display_path(name), f"could not read folder: {exc.strerror or exc}"))

    for root, dirs, files in os.walk(given, followlinks=False, onerror=onerror):
        settings = settings_for(root)
        real_root: str | None = None  # the folder's real path, for its files that are no links
        git = ignores if (ignores is not None and settings.respect_gitignore) else None
        keep = []
        for d in sorted(dirs):
            full = os.path.join(root, d)
            if (d in settings.exclude and d not in spare) or settings.is_excluded(
                full, given, spare
            ):
                continue
            if os.path.exists(os.path.join(full, "pyvenv.cfg")):
                continue
            if git is not None and git.ignored(full, is_dir=True):
                continue
            keep.append(d)
        dirs[:] = keep
        for f in sorted(files):
            if not f.endswith(PYTHON_SUFFIXES):
                continue
            full = os.path.join(root, f)
            if settings.is_excluded(full, given, spare):
                continue
            if git is not None and git.ignored(full, is_dir=False):
                continue
            if os.path.islink(full):
                real = os.path.realpath(full)
                if not os.path.isfile(real):
                    warn(f"{display_path(full)}: broken or looping symlink; skipped")
                    continue
                key = os.path.realpath(real)
            else:
                # not a link: its real path is its folder's, joined (one realpath per folder,
                # not one per file: each resolves every component of the path again)
                if real_root is None:
                    real_root = os.path.realpath(root)
                key = os.path.join(real_root, f)
            if key in seen:
                continue
            seen.add(key)
            out.files.append((full, display_path(full)))


class GitIgnores:
    """`.gitignore` matching for one walk, as git does it: each `.gitignore` applies to the
    paths below its folder, a deeper file overrides a shallower one, `!` re-includes, and
    `.git/info/exclude` applies below the work tree's top with the lowest priority. Nothing
    applies outside a git work tree (ruff, through the `ignore` crate, does the same)."""

    def __init__(self, start: str) -> None:
        self.top = _work_tree_top(os.path.abspath(start))
        self._specs: dict[str, object] = {}
        self._exclude = None
        if self.top is not None:
            self._exclude = _load_spec(os.path.join(self.top, ".git", "info", "exclude"))

    def _spec(self, directory: str):  # noqa: ANN202
        if directory not in self._specs:
            self._specs[directory] = _load_spec(os.path.join(directory, ".gitignore"))
        return self._specs[directory]

    def ignored(self, path: str, is_dir: bool) -> bool:
        if self.top is None:
            return False
        full = os.path.abspath(path)
        rel_top = os.path.relpath(full, self.top)
        if rel_top.startswith(".."):
            return False
        decision = None
        checks = []
        if self._exclude is not None:
            checks.append((self._exclude, self.top))
        directory = self.top
        parts = rel_top.split(os.sep)
        for part in [None, *parts[:-1]]:
            if part is not None:
                directory = os.path.join(directory, part)
            spec = self._spec(directory)
            if spec is not None:
                checks.append((spec, directory))
        for spec, base in checks:
            rel = os.path.relpath(full, base).replace(os.sep, "/") + ("/" if is_dir else "")
            include = spec.check_file(rel).include  # type: ignore[attr-defined]
            if include is not None:
                decision = include
        return bool(decision)


def _work_tree_top(directory: str) -> str | None:
    current = directory if os.path.isdir(directory) else os.path.dirname(directory)
    while True:
        if os.path.exists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def _load_spec(path: str):  # noqa: ANN202 - pathspec.GitIgnoreSpec | None
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return None
    if not any(line.strip() and not line.startswith("#") for line in lines):
        return None
    import pathspec  # only when a .gitignore exists: a plain run does not pay the import

    try:
        return pathspec.GitIgnoreSpec.from_lines(lines)
    except ValueError:
        # a line git cannot use either (`__pycache__\`: a trailing backslash escapes nothing):
        # git matches nothing with it and keeps the other lines, and so does this (v42
        # kc-ml2/meent's .gitignore stopped the whole run with a traceback)
        kept = [line for line in lines if _valid_pattern(pathspec, line)]
        return pathspec.GitIgnoreSpec.from_lines(kept) if kept else None


def _valid_pattern(pathspec, line: str) -> bool:  # noqa: ANN001 - the pathspec module
    try:
        pathspec.GitIgnoreSpec.from_lines([line])
    except ValueError:
        return False
    return True


def iter_python_files(
    paths: Iterable[str],
    settings_for: Callable[[str], Settings],
    warn: Callable[[str], None] | None = None,
) -> list[tuple[str, str]]:
    """(path, display path) for every Python file under `paths`, honouring excludes and
    `.gitignore` (see `jaxlint.files`); paths that cannot be read are warned about here."""
    found = discover(paths, settings_for, warn)
    for display, message in found.errors:
        (warn or _warn)(f"{display}: {message}")
    return found.files
