"""`[tool.jaxlint]` in the nearest pyproject.toml, merged with command-line flags.

Selection follows ruff: the most specific selector wins (`ignore = ["JAX1"]` with
`extend-select = ["JAX101"]` keeps JAX101); `ALL` selects every rule, opt-in ones included.
Opt-in rules need a selector more specific than the bare `JAX` prefix.
"""

from __future__ import annotations

import fnmatch
import os
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from jaxlint.errors import UsageError

KNOWN_KEYS = {
    "select",
    "ignore",
    "extend-select",
    "extend-ignore",
    "per-file-ignores",
    "exclude",
    "extend-exclude",
    "jit-decorators",
    "verify",
    "unroll-threshold",
    "cache-dir",
    "x64",
    "target-jax",
}
DEFAULT_EXCLUDE = (
    ".bzr",
    ".direnv",
    ".eggs",
    ".git",
    ".git-rewrite",
    ".hg",
    ".ipynb_checkpoints",
    ".mypy_cache",
    ".nox",
    ".pants.d",
    ".pyenv",
    ".pytest_cache",
    ".pytype",
    ".ruff_cache",
    ".jaxlint_cache",
    ".svn",
    ".tox",
    ".venv",
    ".vscode",
    "__pypackages__",
    "__pycache__",
    "_build",
    "buck-out",
    "build",
    "dist",
    "node_modules",
    "site-packages",
    "venv",
)
_CODE_RE = re.compile(r"^(ALL|JAX[0-9]{0,3})$")


def warn(message: str) -> None:
    print(f"jaxlint: warning: {message}", file=sys.stderr)


@dataclass(frozen=True)
class Settings:
    """Effective settings for the files under one configuration root."""

    select: tuple[str, ...] = ()  # empty: the default set
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exclude: tuple[str, ...] = ()
    jit_decorators: tuple[str, ...] = ()
    options: tuple[tuple[str, object], ...] = ()
    root: str = "."
    config_file: str | None = None
    verify: tuple[tuple[str, object], ...] = ()
    target_jax: str | None = None  # `target-jax` / `--target-jax`; None: inferred
    target_jax_source: str | None = None
    # Discovered settings infer an unset target from the project and the installed jax;
    # settings built in code (tests, API callers) get the newest JAX unless they set one.
    infer_target: bool = False
    project_root: str | None = None  # nearest pyproject.toml without [tool.jaxlint]

    def jax_target(self):  # noqa: ANN201
        """The JAX versions this code must run on (`jaxlint.jaxversion.JaxTarget`)."""
        from jaxlint.jaxversion import newest, resolve

        if not self.target_jax and not self.infer_target:
            return newest()
        root = self.project_root if self.config_file is None and self.project_root else self.root
        return resolve(self.target_jax, self.target_jax_source, os.path.abspath(root))

    def selected_codes(self, all_rules) -> frozenset[str]:  # noqa: ANN001
        return frozenset(r.code for r in all_rules if self.is_selected(r.code, r.default))

    def is_selected(self, code: str, default: bool) -> bool:
        selectors = (self.select or ("JAX",)) + self.extend_select
        sel = -1
        for s in selectors:
            if s == "ALL":
                sel = max(sel, 0)
            elif code.startswith(s) and (default or s != "JAX"):
                sel = max(sel, len(s))
        if sel < 0:
            return False
        ign = -1
        for s in self.ignore:
            if s == "ALL":
                ign = max(ign, 0)
            elif code.startswith(s):
                ign = max(ign, len(s))
        return sel > ign

    def ignored_for(self, path: str) -> tuple[str, ...]:
        rel = _relative(path, self.root)
        out: list[str] = []
        for pattern, codes in self.per_file_ignores:
            if _match(rel, pattern) or _match(os.path.basename(path), pattern):
                out.extend(codes)
        return tuple(out)

    def is_excluded(self, path: str, base: str | None = None) -> bool:
        """Exclusion by name (any folder below `base`) or by glob relative to the config root.

        Only the part of the path below the folder the user named counts: linting
        `.venv/lib/.../site-packages/jax` explicitly must not be excluded because of
        `site-packages` above it.
        """
        below = _relative(path, base) if base is not None else _relative(path, self.root)
        parts = [p for p in Path(below).parts if p not in ("..", ".")]
        rel = _relative(path, self.root)
        for pattern in self.exclude:
            if any(fnmatch.fnmatch(p, pattern) for p in parts):
                return True
            if "/" in pattern.rstrip("/") or not rel.startswith(".."):
                if _match(rel, pattern):
                    return True
        return False

    def option(self, key: str, default: object = None) -> object:
        return dict(self.options).get(key, default)

    def fingerprint(self) -> str:
        """Stable text of what changes lint results: part of the cache key."""
        return repr(
            (
                self.select,
                self.extend_select,
                self.ignore,
                self.per_file_ignores,
                self.jit_decorators,
                self.options,
                self.jax_target().key(),
            )
        )


def _relative(path: str, root: str) -> str:
    try:
        return os.path.relpath(os.path.abspath(path), os.path.abspath(root)).replace(os.sep, "/")
    except ValueError:
        return path


def _match(rel: str, pattern: str) -> bool:
    pattern = pattern.rstrip("/")
    return fnmatch.fnmatch(rel, pattern) or fnmatch.fnmatch(rel, pattern + "/*")


def _codes(value: object, key: str, source: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        warn(f"{source}: `{key}` must be a list of rule codes; ignored")
        return ()
    out = []
    for v in value:
        v = v.strip().upper()
        if not _CODE_RE.match(v):
            warn(f"{source}: unknown rule selector `{v}` in `{key}` (expected ALL or JAX###)")
            continue
        out.append(v)
    return tuple(out)


def _known_code_check(codes: tuple[str, ...], where: str) -> None:
    from jaxlint.rules import ALL_RULES

    known = {r.code for r in ALL_RULES} | {"JAX000"}
    for c in codes:
        if c != "ALL" and len(c) == 6 and c not in known:
            warn(f"{where}: `{c}` is not a jaxlint rule (see `jaxlint rules`)")


def parse_table(table: dict, source: str, root: str) -> Settings:
    for key in table:
        if key not in KNOWN_KEYS:
            warn(f"{source}: unknown key `{key}` in [tool.jaxlint]; ignored")
    pfi = []
    raw_pfi = table.get("per-file-ignores", {})
    if isinstance(raw_pfi, dict):
        for pattern, codes in raw_pfi.items():
            pfi.append((pattern, _codes(codes, f"per-file-ignores.{pattern}", source)))
    else:
        warn(f"{source}: `per-file-ignores` must be a table; ignored")

    def strs(key: str) -> tuple[str, ...]:
        value = table.get(key, [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            warn(f"{source}: `{key}` must be a list of strings; ignored")
            return ()
        return tuple(value)

    options = tuple((k, table[k]) for k in ("unroll-threshold", "x64") if k in table)
    verify = table.get("verify", {})
    target = None
    if "target-jax" in table:
        from jaxlint.jaxversion import check

        target = check(table["target-jax"], source)
    settings = Settings(
        select=_codes(table.get("select", []), "select", source),
        extend_select=_codes(table.get("extend-select", []), "extend-select", source),
        ignore=_codes(table.get("ignore", []), "ignore", source)
        + _codes(table.get("extend-ignore", []), "extend-ignore", source),
        per_file_ignores=tuple(pfi),
        exclude=DEFAULT_EXCLUDE + strs("exclude") + strs("extend-exclude"),
        jit_decorators=strs("jit-decorators"),
        options=options,
        root=root,
        config_file=source,
        verify=tuple(verify.items()) if isinstance(verify, dict) else (),
        target_jax=target,
        target_jax_source=f"{source} [tool.jaxlint] target-jax" if target else None,
        infer_target=True,
    )
    for codes, key in (
        (settings.select, "select"),
        (settings.extend_select, "extend-select"),
        (settings.ignore, "ignore"),
    ):
        _known_code_check(codes, f"{source} `{key}`")
    return settings


def load_file(path: Path) -> Settings:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read config {path}: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"invalid TOML in {path}: {exc}") from None
    if path.name == "pyproject.toml":
        table = data.get("tool", {}).get("jaxlint", {})
    else:
        table = data.get("tool", {}).get("jaxlint", data)
    if not isinstance(table, dict):
        raise UsageError(f"{path}: [tool.jaxlint] must be a table")
    return parse_table(table, str(path), str(path.parent))


class ConfigResolver:
    """Finds the configuration for each path: `--config`, else the nearest pyproject.toml
    with a [tool.jaxlint] table, else defaults rooted at the current directory."""

    def __init__(self, config_file: str | None = None, overrides: dict | None = None) -> None:
        self.overrides = overrides or {}
        self._fixed = load_file(Path(config_file)) if config_file else None
        if config_file and not Path(config_file).exists():
            raise UsageError(f"config file not found: {config_file}")
        self._by_dir: dict[str, Settings] = {}
        self._default = Settings(exclude=DEFAULT_EXCLUDE, root=os.getcwd(), infer_target=True)

    def for_path(self, path: str) -> Settings:
        if self._fixed is not None:
            return self._apply(self._fixed)
        directory = (
            os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(path)
            else os.path.abspath(path)
        )
        return self._apply(self._find(directory))

    def _find(self, directory: str) -> Settings:
        if directory in self._by_dir:
            return self._by_dir[directory]
        candidate = os.path.join(directory, "pyproject.toml")
        settings: Settings | None = None
        if os.path.isfile(candidate):
            try:
                with open(candidate, "rb") as fh:
                    data = tomllib.load(fh)
            except (OSError, tomllib.TOMLDecodeError) as exc:
                warn(f"cannot read {candidate}: {exc}")
                data = {}
            table = data.get("tool", {}).get("jaxlint")
            if isinstance(table, dict):
                settings = parse_table(table, candidate, directory)
        if settings is None:
            parent = os.path.dirname(directory)
            settings = self._default if parent == directory else self._find(parent)
            if settings.config_file is None and os.path.isfile(candidate):
                # no [tool.jaxlint] anywhere: this project's jax requirement sets the target
                settings = replace(settings, project_root=directory)
        self._by_dir[directory] = settings
        return settings

    def _apply(self, base: Settings) -> Settings:
        o = self.overrides
        if not o:
            return base
        return replace(
            base,
            select=o["select"] if o.get("select") else base.select,
            extend_select=base.extend_select + tuple(o.get("extend_select") or ()),
            ignore=base.ignore + tuple(o.get("ignore") or ()),
            exclude=base.exclude + tuple(o.get("exclude") or ()),
            jit_decorators=base.jit_decorators + tuple(o.get("jit_decorators") or ()),
            target_jax=o.get("target_jax") or base.target_jax,
            target_jax_source="--target-jax" if o.get("target_jax") else base.target_jax_source,
        )


def parse_codes_arg(value: str | None, flag: str) -> tuple[str, ...]:
    if not value:
        return ()
    out = []
    for part in re.split(r"[,\s]+", value.strip()):
        if not part:
            continue
        part = part.upper()
        if not _CODE_RE.match(part):
            raise UsageError(f"invalid rule selector `{part}` for {flag} (expected ALL or JAX###)")
        out.append(part)
    _known_code_check(tuple(out), flag)
    return tuple(out)
