"""`[tool.jaxlint]` in the nearest pyproject.toml, merged with command-line flags.

Selection follows ruff. The configuration's `select`/`extend-select`/`ignore` form a base
layer; the command line is a second layer on top: its `--select` starts from nothing (dropping
the configuration's `select` and `extend-select`), its `--extend-select`/`--ignore` add to or
remove from the base. Within a layer the most specific selector wins (`ignore = ["JAX1"]` with
`extend-select = ["JAX101"]` keeps JAX101), an ignore beats a select of equal specificity, and
`ALL` is the least specific selector of all. `ALL` selects every rule, opt-in ones included;
opt-in rules need a selector more specific than the bare `JAX` prefix.

A configuration that cannot be parsed, or a value of the wrong type, is an error (exit 2):
linting with silently changed settings would let CI pass for the wrong reason.
"""

from __future__ import annotations

import contextlib
import difflib
import fnmatch
import functools
import os
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, fields, replace
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from jaxlint.core.codes import known_codes
from jaxlint.core.errors import UsageError
from jaxlint.core.paths import below

KNOWN_KEYS = {
    "select",
    "ignore",
    "extend-select",
    "extend-ignore",
    "per-file-ignores",
    "extend-per-file-ignores",
    "exclude",
    "extend-exclude",
    "jit-decorators",
    "verify",
    "pytest",  # [tool.jaxlint.pytest]: read by the pytest plugin (docs/pytest.md)
    "unroll-threshold",
    "cache-dir",
    "x64",
    "respect-gitignore",
    "force-exclude",
    "min-confidence",
    "target-jax",
    "preview",
}
CONFIDENCES = ("medium", "high")
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


_QUIET = [0]  # > 0: inside `quiet_warnings()`


def warn(message: str) -> None:
    if _QUIET[0]:
        return
    print(f"jaxlint: warning: {message}", file=sys.stderr)


@contextlib.contextmanager
def quiet_warnings() -> Iterator[None]:
    """No configuration warnings inside: the project index reads the configurations of
    folders nobody asked to lint (every sibling under a marker-less parent such as /tmp) to
    decide what it indexes; a warning about one of those is noise to this run. The linted
    files' own configurations are read (and warned about) before the index is built."""
    _QUIET[0] += 1
    try:
        yield
    finally:
        _QUIET[0] -= 1


@dataclass(frozen=True)
class Settings:
    """Effective settings for the files under one configuration root.

    `select`/`extend_select`/`ignore` are the configuration's layer (None: not set, the
    default-on rules); the `cli_*` fields are the command line's layer on top of it.
    `config_keys` and `cli_set` record where each value came from (`--show-settings`).
    """

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    cli_select: tuple[str, ...] | None = None
    cli_extend_select: tuple[str, ...] = ()
    cli_ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exclude: tuple[str, ...] = ()
    jit_decorators: tuple[str, ...] = ()
    options: tuple[tuple[str, object], ...] = ()
    respect_gitignore: bool = True
    force_exclude: bool = False
    root: str = "."
    config_file: str | None = None
    verify: tuple[tuple[str, object], ...] = ()
    config_keys: tuple[str, ...] = ()
    cli_set: tuple[str, ...] = ()
    target_jax: str | None = None  # `target-jax` / `--target-jax`; None: inferred
    target_jax_source: str | None = None
    # Discovered settings infer an unset target from the project and the installed jax;
    # settings built in code (tests, API callers) get the newest JAX unless they set one.
    infer_target: bool = False
    project_root: str | None = None  # nearest pyproject.toml without [tool.jaxlint]
    # preview mode (ruff's): rules and confidence levels in `codes.PREVIEW` run only with it
    preview: bool = False

    def jax_target(self):  # noqa: ANN201
        """The JAX versions this code must run on (`jaxlint.core.jaxversion.JaxTarget`)."""
        from jaxlint.core.jaxversion import newest, resolve

        if not self.target_jax and not self.infer_target:
            return newest()
        root = self.project_root if self.config_file is None and self.project_root else self.root
        return resolve(self.target_jax, self.target_jax_source, os.path.abspath(root))

    def selected_codes(self, all_rules) -> frozenset[str]:  # noqa: ANN001
        # asked once per linted file with the same settings object and rule list: kept on
        # the (frozen) instance, outside its fields (equality, repr and the fingerprint
        # read the fields only)
        key = tuple(all_rules)
        memo = self.__dict__.get("_selected_memo")
        if memo is None:
            memo = {}
            object.__setattr__(self, "_selected_memo", memo)
        codes = memo.get(key)
        if codes is None:
            codes = memo[key] = frozenset(
                r.code for r in key if self.is_selected(r.code, r.default)
            )
        return codes

    def table_codes(self) -> frozenset[str]:
        """`selected_codes` read from the code table (`core.codes.OPT_IN` says which rules are
        off by default), with no rule imported: what a run whose files are all cache hits asks."""
        from jaxlint.core.codes import CODES, OPT_IN

        return frozenset(c.code for c in CODES if self.is_selected(c.code, c.code not in OPT_IN))

    def is_selected(self, code: str, default: bool) -> bool:
        """ruff's layered selection: start from the default-on rules, then apply the
        configuration's layer and the command line's; a layer with a `select` starts over.
        A preview rule is never selected without preview mode, not even by its exact code
        (ruff's rule: `preview_selections` names those selections for a warning)."""
        from jaxlint.core.codes import is_preview_rule

        if not self.preview and is_preview_rule(code):
            return False
        current = default
        for select, extend, ignore in (
            (self.select, self.extend_select, self.ignore),
            (self.cli_select, self.cli_extend_select, self.cli_ignore),
        ):
            sel = max(
                (_specificity(s) for s in (select or ()) + extend if _selects(s, code, default)),
                default=-1,
            )
            ign = max((_specificity(s) for s in ignore if _matches(s, code)), default=-1)
            if sel < 0 and ign < 0:
                current = current if select is None else False
            else:
                current = sel > ign
        return current

    def preview_selections(self) -> list[str]:
        """Selectors that name a preview rule by its exact code while preview is off: they
        have no effect (ruff warns `Selection X has no effect because preview is not
        enabled`); a prefix (`JAX1`) selecting it among others is not worth a warning."""
        from jaxlint.core.codes import is_preview_rule

        if self.preview:
            return []
        chosen = (self.select or ()) + self.extend_select
        chosen += (self.cli_select or ()) + self.cli_extend_select
        return list(dict.fromkeys(c for c in chosen if is_preview_rule(c)))

    def ignored_for(self, path: str) -> tuple[str, ...]:
        rel = _relative(path, self.root)
        out: list[str] = []
        for pattern, codes in self.per_file_ignores:
            if _match(rel, pattern) or _match(os.path.basename(path), pattern):
                out.extend(codes)
        return tuple(out)

    def is_excluded(
        self, path: str, base: str | None = None, spare: frozenset = frozenset()
    ) -> bool:
        """Exclusion by name (any folder below `base`) or by glob relative to the config root.

        Only the part of the path below the folder the user named counts: linting
        `.venv/lib/.../site-packages/jax` explicitly must not be excluded because of
        `site-packages` above it. Patterns may start with `./` or be absolute paths.
        `spare`: patterns not to apply (those that exclude a folder named on the command line).
        """
        return any(p not in spare for p in self.excluding(path, base))

    def excluding(self, path: str, base: str | None = None) -> list[str]:
        """The exclude patterns that match `path`."""
        rel = _relative(path, self.root)
        below = _relative(path, base) if base is not None else rel
        # `_relative` answers a normalised path with `/` (or `path` as given, on another drive)
        parts = [p for p in below.replace(os.sep, "/").split("/") if p not in ("..", ".", "")]
        names, slashed, named_rel = _exclude_matchers(self.exclude, self.root)
        if not (
            (names is not None and any(names(p) for p in parts))
            or (slashed is not None and slashed(rel))
            or (named_rel is not None and not rel.startswith("..") and named_rel(rel))
        ):
            return []  # the usual answer, from three compiled regexes (not 2 per pattern)
        out = []
        for original in self.exclude:
            pattern = original
            if os.path.isabs(pattern):
                pattern = _relative(pattern, self.root)
            while pattern.startswith("./"):
                pattern = pattern[2:]
            bare = pattern.rstrip("/")
            if not bare:
                continue
            if "/" not in bare and any(fnmatch.fnmatch(p, bare) for p in parts):
                out.append(original)
            elif ("/" in bare or not rel.startswith("..")) and _match(rel, pattern):
                out.append(original)
        return out

    def option(self, key: str, default: object = None) -> object:
        return dict(self.options).get(key, default)

    def fingerprint(self) -> str:
        """Stable text of what changes lint results: part of the cache key."""
        from jaxlint.core.codes import preview_key

        return repr(
            (
                self.select,
                self.extend_select,
                self.ignore,
                self.cli_select,
                self.cli_extend_select,
                self.cli_ignore,
                self.per_file_ignores,
                self.jit_decorators,
                self.options,
                self.jax_target().key(),
                self.preview,
                preview_key(),
            )
        )


def _specificity(selector: str) -> int:
    return 0 if selector == "ALL" else len(selector)


def _matches(selector: str, code: str) -> bool:
    return selector == "ALL" or code.startswith(selector)


def _selects(selector: str, code: str, default: bool) -> bool:
    # opt-in rules need more than the bare linter prefix
    return _matches(selector, code) and (default or selector != "JAX")


def _relative(path: str, root: str) -> str:
    full, top = os.path.abspath(path), os.path.abspath(root)
    rel = below(full, top)  # a path under the root: nearly every question discovery asks
    if rel is not None:
        return rel
    try:
        return os.path.relpath(full, top).replace(os.sep, "/")
    except ValueError:
        return path


@functools.lru_cache(maxsize=256)
def _exclude_matchers(exclude: tuple[str, ...], root: str) -> tuple:
    """The exclude patterns compiled once per (patterns, root), as `Settings.excluding`
    reads them: (a folder or file name matching a name pattern, a path relative to the root
    matching a pattern with a `/` or its contents, the same for name patterns); None where
    there are none. Discovery asks for every folder and file, and `fnmatch` per pattern per
    path part was most of a warm run's discovery."""
    names, slashed, named_rel = [], [], []
    for pattern in exclude:
        if os.path.isabs(pattern):
            pattern = _relative(pattern, root)
        while pattern.startswith("./"):
            pattern = pattern[2:]
        bare = pattern.rstrip("/")
        if not bare:
            continue
        whole = [fnmatch.translate(bare), fnmatch.translate(bare + "/*")]
        if "/" in bare:
            slashed += whole
        else:
            names.append(fnmatch.translate(bare))
            named_rel += whole

    def compiled(regexes: list[str]):  # noqa: ANN202
        return re.compile("|".join(f"(?:{r})" for r in regexes)).match if regexes else None

    return compiled(names), compiled(slashed), compiled(named_rel)


def _match(rel: str, pattern: str) -> bool:
    pattern = pattern.rstrip("/")
    return fnmatch.fnmatch(rel, pattern) or fnmatch.fnmatch(rel, pattern + "/*")


class ConfigError(UsageError):
    """The configuration cannot be used as written (exit 2, like ruff)."""


def _codes(value: object, key: str, source: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{source}: `{key}` must be a list of rule codes, got {_describe(value)}")
    out = []
    for v in value:
        v = v.strip().upper()
        if not _CODE_RE.match(v):
            warn(f"{source}: unknown rule selector `{v}` in `{key}` (expected ALL or JAX###)")
            continue
        out.append(v)
    return tuple(out)


def _describe(value: object) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) < 40 else text[:37] + '...'}"


def _known_code_check(codes: tuple[str, ...], where: str) -> None:
    """Warn about selectors that match no rule (`JAX99`, `JAX999`): probably a typo. Checked
    against the code table, so configuration never imports the rules."""
    known = sorted(known_codes())
    for c in codes:
        if not matches_no_rule(c, known):
            continue
        close = difflib.get_close_matches(c, known, n=1)
        hint = f"; did you mean `{close[0]}`?" if close else " (see `jaxlint rules`)"
        warn(f"{where}: `{c}` matches no jaxlint rule{hint}")


def matches_no_rule(code: str, known: Iterable[str]) -> bool:
    """A selector (`JAX99`, `JAX299`) that is no code and no prefix of one (`ALL` and `JAX`
    select everything)."""
    return code not in ("ALL", "JAX") and not any(k.startswith(code) for k in known)


def _jax000_check(codes: tuple[str, ...], where: str) -> None:
    if "JAX000" in codes:
        warn(
            f"{where}: JAX000 (a file that could not be read or parsed) is always reported, "
            "as ruff reports syntax errors; ignoring it has no effect"
        )


# ruff's spellings that jaxlint reads under another name or place: the hint says which
_RUFF_SHAPED = {
    "lint": "; jaxlint reads `select`, `ignore`, `preview`, ... directly under [tool.jaxlint]"
    " (ruff's [tool.ruff.lint] layout): move them up a level",
    "target-version": "; jaxlint's is `target-jax` (the JAX release to check for, e.g. "
    '"0.6"), not a Python version',
}


def _unknown_key(key: str, source: str, known: set[str], table: str = "[tool.jaxlint]") -> None:
    close = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.6)
    hint = _RUFF_SHAPED.get(key) or (f"; did you mean `{close[0]}`?" if close else "")
    warn(f"{source}: unknown key `{key}` in {table}; ignored{hint}")


def _option(table: dict, key: str, source: str) -> object:
    """`unroll-threshold` (a positive integer) and `x64` (a boolean), checked."""
    value = table[key]
    if key == "unroll-threshold":
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ConfigError(
                f"{source}: `{key}` must be a positive integer, got {_describe(value)}"
            )
    elif key == "x64" and not isinstance(value, bool):
        raise ConfigError(f"{source}: `{key}` must be true or false, got {_describe(value)}")
    return value


def parse_table(table: dict, source: str, root: str) -> Settings:
    for key in table:
        if key not in KNOWN_KEYS:
            _unknown_key(key, source, KNOWN_KEYS)
    pfi = []
    # `extend-per-file-ignores` (ruff's) adds to `per-file-ignores`, as `extend-ignore` does
    for pfi_key in ("per-file-ignores", "extend-per-file-ignores"):
        raw_pfi = table.get(pfi_key, {})
        if not isinstance(raw_pfi, dict):
            raise ConfigError(
                f"{source}: `{pfi_key}` must be a table of glob = [codes], got {_describe(raw_pfi)}"
            )
        for pattern, codes in raw_pfi.items():
            pfi.append((pattern, _codes(codes, f"{pfi_key}.{pattern}", source)))

    def strs(key: str) -> tuple[str, ...]:
        value = table.get(key, [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(
                f"{source}: `{key}` must be a list of strings, got {_describe(value)}"
            )
        return tuple(value)

    def flag(key: str, default: bool) -> bool:
        value = table.get(key, default)
        if not isinstance(value, bool):
            raise ConfigError(f"{source}: `{key}` must be true or false, got {_describe(value)}")
        return value

    if "cache-dir" in table and not isinstance(table["cache-dir"], str):
        raise ConfigError(
            f"{source}: `cache-dir` must be a string, got {_describe(table['cache-dir'])}"
        )
    options = tuple(
        (k, _option(table, k, source)) for k in ("unroll-threshold", "x64") if k in table
    )
    if "min-confidence" in table:
        if table["min-confidence"] not in CONFIDENCES:
            raise ConfigError(
                f"{source}: `min-confidence` must be one of {', '.join(CONFIDENCES)},"
                f" got {_describe(table['min-confidence'])}"
            )
        options += (("min-confidence", table["min-confidence"]),)
    verify = table.get("verify", {})
    if not isinstance(verify, dict):
        raise ConfigError(f"{source}: `verify` must be a table, got {_describe(verify)}")
    target = None
    if "target-jax" in table:
        from jaxlint.core.jaxversion import check

        target = check(table["target-jax"], source)
    settings = Settings(
        select=_codes(table["select"], "select", source) if "select" in table else None,
        extend_select=_codes(table.get("extend-select", []), "extend-select", source),
        ignore=_codes(table.get("ignore", []), "ignore", source)
        + _codes(table.get("extend-ignore", []), "extend-ignore", source),
        per_file_ignores=tuple(pfi),
        exclude=DEFAULT_EXCLUDE + strs("exclude") + strs("extend-exclude"),
        jit_decorators=strs("jit-decorators"),
        options=options,
        respect_gitignore=flag("respect-gitignore", True),
        force_exclude=flag("force-exclude", False),
        preview=flag("preview", False),
        root=root,
        config_file=source,
        verify=tuple(verify.items()),
        config_keys=tuple(k for k in table if k in KNOWN_KEYS),
        target_jax=target,
        target_jax_source=f"{source} [tool.jaxlint] target-jax" if target else None,
        infer_target=True,
    )
    for codes, key in (
        (settings.select or (), "select"),
        (settings.extend_select, "extend-select"),
        (settings.ignore, "ignore"),
        (tuple(c for _, cs in settings.per_file_ignores for c in cs), "per-file-ignores"),
    ):
        _known_code_check(codes, f"{source} `{key}`")
    _jax000_check(settings.ignore, f"{source} `ignore`")
    return settings


def _read_toml(path: str) -> dict:
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except OSError as exc:
        hint = ""
        if "=" in str(path) and not os.path.exists(str(path)):
            # ruff's inline override (`--config "preview = true"`): jaxlint's takes a file
            hint = (
                "; `--config` takes a file here (ruff's inline `KEY = VALUE` overrides are "
                "not read): use the flags (`--preview`, `--select`, ...) or [tool.jaxlint]"
            )
        raise ConfigError(f"cannot read config {path}: {exc.strerror or exc}{hint}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"cannot read config {path}: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"invalid TOML in {path}: {exc}") from None


def load_file(path: Path) -> Settings:
    data = _read_toml(str(path))
    tool = data.get("tool") if isinstance(data.get("tool"), dict) else {}
    if path.name == "pyproject.toml":
        table = tool.get("jaxlint", {})
    else:
        table = tool.get("jaxlint", data)
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.jaxlint] must be a table")
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
        self._by_path: dict[str, Settings] = {}  # each file is asked about several times
        self._applied: dict[int, tuple[Settings, Settings]] = {}
        self._default = Settings(exclude=DEFAULT_EXCLUDE, root=os.getcwd(), infer_target=True)

    def for_path(self, path: str) -> Settings:
        if self._fixed is not None:
            return self._apply(self._fixed)
        known = self._by_path.get(path)
        if known is not None:
            return known
        directory = (
            os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(path)
            else os.path.abspath(path)
        )
        settings = self._by_path[path] = self._apply(self._find(directory))
        return settings

    def _find(self, directory: str) -> Settings:
        if directory in self._by_dir:
            return self._by_dir[directory]
        candidate = os.path.join(directory, "pyproject.toml")
        settings: Settings | None = None
        if os.path.isfile(candidate):
            data = _read_toml(candidate)  # broken: an error, as in ruff, never the defaults
            tool = data.get("tool")
            table = tool.get("jaxlint") if isinstance(tool, dict) else None
            if isinstance(table, dict):
                settings = parse_table(table, candidate, directory)
            elif table is not None:
                raise ConfigError(f"{candidate}: [tool.jaxlint] must be a table")
        if settings is None:
            parent = os.path.dirname(directory)
            settings = self._default if parent == directory else self._find(parent)
            if settings.config_file is None and os.path.isfile(candidate):
                # no [tool.jaxlint] anywhere: this project's jax requirement sets the target
                settings = replace(settings, project_root=directory)
        self._by_dir[directory] = settings
        return settings

    def _apply(self, base: Settings) -> Settings:
        """The command line's layer on top of a configuration (memoized per configuration)."""
        o = self.overrides
        if not o:
            return base
        memo = self._applied.get(id(base))
        if memo is not None and memo[0] is base:
            return memo[1]
        changes: dict[str, object] = {}
        if o.get("select"):
            changes["cli_select"] = tuple(o["select"])
        if o.get("extend_select"):
            changes["cli_extend_select"] = tuple(o["extend_select"])
        if o.get("ignore"):
            changes["cli_ignore"] = tuple(o["ignore"])
        for key in ("exclude", "jit_decorators"):
            if o.get(key):
                changes[key] = getattr(base, key) + tuple(o[key])
        if o.get("min_confidence"):
            kept = tuple(kv for kv in base.options if kv[0] != "min-confidence")
            changes["options"] = (*kept, ("min-confidence", o["min_confidence"]))
        if o.get("target_jax"):
            changes["target_jax"] = o["target_jax"]
            changes["target_jax_source"] = "--target-jax"
        for key in ("respect_gitignore", "force_exclude", "preview"):
            if o.get(key) is not None:
                changes[key] = bool(o[key])
        # anything else a command line sets (a field of the same name) replaces the value
        known = {f.name for f in fields(Settings)}
        for key, value in o.items():
            if key not in changes and key in known and key not in _LAYERED and value is not None:
                changes[key] = value
        result = replace(base, **changes, cli_set=tuple(changes)) if changes else base
        self._applied[id(base)] = (base, result)
        return result


_LAYERED = {"select", "extend_select", "ignore", "exclude", "jit_decorators"}


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
    if "ignore" in flag:
        _jax000_check(tuple(out), flag)
    return tuple(out)
