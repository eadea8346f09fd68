"""The JAX version a project targets: which removals apply to it and which APIs a fix may write.

A linter of removed APIs is only right for a given JAX: `jax.core.CallPrimitive` is fine on
0.6, deprecated on 0.10 and gone on 0.12, and its 0.10 replacement is itself gone on 0.12.
The target is a range `[low, high]` of JAX versions the code must run on:

- a finding about an old API fires when the API is deprecated or removed at or before `high`
  (some JAX the project accepts no longer has it);
- a fix may write a new API safely only when every JAX in the range has it (`since <= low`
  and not removed by `high`); when only part of the range has it the fix is unsafe, when none
  does the finding only advises.

Where the target comes from, in order: `--target-jax`, `[tool.jaxlint] target-jax`, the
`JAXLINT_TARGET_JAX` environment variable (an ambient default, e.g. for a CI matrix or a
test suite that must not depend on the JAX it runs with), the project's declared constraint
on `jax` (pyproject dependencies, Poetry, requirements files, a conda environment.yml), the
installed `jax` distribution's metadata (never `import jax`: static lint must not run JAX),
else the newest JAX jaxlint knows.

A constraint is judged as written, never clamped into the tables' range: `jax>=0.4.20,<0.5`
is JAX 0.4.20 - 0.4 (an old API deprecated in 0.4.26 is reported as deprecated, not as removed
in 0.6), and `jax==0.5.3` in a requirement means what `--target-jax 0.5.3` means. A target
outside the tables' range gets one line saying so (`JaxTarget.coverage_note`), and below them a
replacement the tables do not date is not assumed to exist (its fix is unsafe).
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from functools import lru_cache

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from jaxlint.core.errors import UsageError

Version = tuple[int, ...]

#: JAX versions whose APIs the tables describe (pip gives 0.6.2 on Python 3.10, 0.10.2 on
#: 3.11, 0.12.0.1 on >= 3.12; see reference/jax-0.12-facts.md).
OLDEST: Version = (0, 6)
NEWEST: Version = (0, 12)
_TOP = 999  # "any patch release": 0.12 as an upper bound is 0.12.999


@lru_cache(maxsize=1024)  # the rename tables ask the same few strings for every file
def parse_version(text: str) -> Version:
    """`"0.11.1"` -> `(0, 11, 1)`; pre/post-release suffixes are dropped (`0.4.36.dev` -> 0.4.36)."""
    parts = []
    for piece in text.strip().lstrip("vV").split("."):
        m = re.match(r"\d+", piece)
        if m is None:
            break
        parts.append(int(m.group()))
        if m.end() != len(piece):
            break
    if not parts:
        raise ValueError(f"not a version: {text!r}")
    return tuple(parts)


def show(v: Version) -> str:
    """`(0, 12, 999)` -> `0.12`: the patch wildcard is not shown; a minor wildcard is
    (`~=0.5` reaches `(0, 999, 999)`, which would otherwise read as "0.5 - 0")."""
    if len(v) >= 2 and v[1] == _TOP:
        return f"{v[0]}.x"
    return ".".join(str(p) for p in v if p != _TOP)


def _upper(v: Version) -> Version:
    """The last release that `v` names: `0.12` -> 0.12.999 (`0.11.1` stays itself)."""
    return v + (_TOP,) * (3 - len(v)) if len(v) < 3 else v


def _pad(v: Version) -> Version:
    return v + (0,) * (3 - len(v)) if len(v) < 3 else v


@dataclass(frozen=True)
class JaxTarget:
    """The JAX versions the code must run on, and where that came from (for --show-settings)."""

    low: Version
    high: Version
    source: str

    def text(self) -> str:
        low = self.low[:2] if len(self.low) == 3 and self.low[2] == 0 else self.low
        lo, hi = show(low), show(self.high)
        if self.low == self.high:
            return show(self.low)
        return lo if lo == hi else f"{lo} - {hi}"

    def key(self) -> str:
        """Part of the lint cache key: findings depend on it."""
        return f"{self.low}:{self.high}"

    # -- the questions rules ask --------------------------------------------------------------
    def reaches(self, version: str | Version | None) -> bool:
        """Whether some target JAX is at or after `version` (None: every JAX)."""
        if version is None:
            return True
        return _pad(_v(version)) <= self.high

    def all_have(self, since: str | Version | None, until: str | Version | None = None) -> bool:
        """Whether every target JAX has an API that exists from `since` until before `until`.

        `since` None means "in every JAX the tables describe": below their oldest version
        that is unknown, so a target reaching below it does not count as having the API."""
        if since is None:
            ok_low = self.low >= _pad(OLDEST)
        else:
            ok_low = _pad(_v(since)) <= self.low
        ok_high = until is None or self.high < _pad(_v(until))
        return ok_low and ok_high

    def some_have(self, since: str | Version | None, until: str | Version | None = None) -> bool:
        """Whether at least one target JAX has that API."""
        ok_low = since is None or _pad(_v(since)) <= self.high
        ok_high = until is None or self.low < _pad(_v(until))
        return ok_low and ok_high

    def availability(self, since: str | None, until: str | None = None) -> str | None:
        """Safety a fix writing that API can have: "safe" (every target JAX has it), "unsafe"
        (only some do), None (none does)."""
        if self.all_have(since, until):
            return "safe"
        if self.some_have(since, until):
            return "unsafe"
        return None

    def coverage_note(self) -> str | None:
        """One line when the target reaches outside the JAX versions the tables describe
        (None inside them): findings there are judged on what the tables know, so say so."""
        tables = f"JAX {show(OLDEST)} - {show(NEWEST)}"
        if self.low < _pad(OLDEST):
            return (
                f"target JAX {self.text()} ({self.source}) is older than jaxlint's version tables"
                f" ({tables}): changes before JAX {show(OLDEST)} are only partly known, and"
                " fixes that write an API the tables do not date are unsafe"
            )
        if self.high > _upper(NEWEST):
            return (
                f"target JAX {self.text()} ({self.source}) is newer than jaxlint's version tables"
                f" ({tables}): removals after JAX {show(NEWEST)} are not known"
            )
        return None


def _v(version: str | Version) -> Version:
    return parse_version(version.rstrip("?")) if isinstance(version, str) else version


def exact(version: str, source: str) -> JaxTarget:
    v = parse_version(version)
    return JaxTarget(_pad(v), _upper(v), source)


def newest(source: str = "default: the newest JAX jaxlint knows") -> JaxTarget:
    return JaxTarget(_pad(NEWEST), _upper(NEWEST), source)


# -- specifiers ----------------------------------------------------------------------------------

_SPEC = re.compile(r"(===|==|~=|!=|<=|>=|<|>|\^|~)\s*([0-9][0-9A-Za-z.*+!-]*)")


def from_specifier(spec: str, source: str) -> JaxTarget | None:
    """A PEP 440 (or Poetry `^`/`~`) constraint -> the range it allows; None when it says
    nothing about the version (`jax`, `jax[cuda]`). A bound the constraint leaves open is
    the tables' oldest / newest JAX; a bound it sets is kept, even outside the tables (the
    project's own requirement is the truth, `coverage_note` says what the tables miss)."""
    low: Version | None = None
    high: Version | None = None
    found = False
    for op, raw in _SPEC.findall(spec):
        if op == "!=":
            continue
        try:
            v = parse_version(raw.replace("*", ""))
        except ValueError:
            continue
        found = True
        lo: Version | None = None
        hi: Version | None = None
        if op in ("==", "==="):
            if raw.endswith("*") or len(v) < 3:
                lo, hi = _pad(v), _upper(v)
            else:
                lo, hi = _pad(v), _pad(v)
        elif op in (">=", ">"):
            lo = _pad(v)
        elif op == "<=":
            hi = _upper(v)
        elif op == "<":
            hi = _below(v)
        elif op in ("~=", "~", "^"):
            lo = _pad(v)
            # ~=0.4.30 allows 0.4.*; ^0.4 / ~0.4 (Poetry) allow 0.4.*
            keep = len(v) - 1 if op == "~=" and len(v) > 1 else 2
            hi = _upper(v[:keep])
        if lo is not None:
            low = lo if low is None else max(low, lo)
        if hi is not None:
            high = hi if high is None else min(high, hi)
    if not found:
        return None
    if low is None:  # no lower bound: the oldest the tables know, or the upper bound's series
        low = _pad(OLDEST) if high is None or high >= _pad(OLDEST) else (*high[:2], 0)
    if high is None:  # no upper bound: the newest the tables know, or the lower bound's series
        high = _upper(NEWEST) if low <= _upper(NEWEST) else _upper(low[:2])
    if high < low:  # contradictory (`>=0.8,<0.7`): the lower bound alone
        high = _upper(low[:2])
    return JaxTarget(low, high, source)


def _below(v: Version) -> Version:
    """The last release before `v`: `<0.11` -> 0.10.999."""
    p = _pad(v)
    if p[2] > 0:
        return (p[0], p[1], p[2] - 1)
    if p[1] > 0:
        return (p[0], p[1] - 1, _TOP)
    return (max(p[0] - 1, 0), _TOP, _TOP)


# -- where the project declares it -----------------------------------------------------------------

_REQ = re.compile(r"^\s*jax(\[[^\]]*\])?\s*(?P<spec>[<>=!~^][^;#]*)?(;.*)?(#.*)?$", re.IGNORECASE)


def _requirement_spec(line: str) -> str | None:
    """`jax>=0.4.30,<0.7 ; python_version>'3.9'` -> `>=0.4.30,<0.7`; None when not about jax."""
    m = _REQ.match(line)
    if m is None:
        return None
    return (m.group("spec") or "").strip()


def declared(root: str) -> JaxTarget | None:
    """The project's constraint on `jax` under `root`: pyproject.toml, then requirements files."""
    pyproject = os.path.join(root, "pyproject.toml")
    if os.path.isfile(pyproject):
        try:
            with open(pyproject, "rb") as fh:
                data = tomllib.load(fh)
        except (OSError, tomllib.TOMLDecodeError):
            data = {}
        project = data.get("project", {}) if isinstance(data.get("project"), dict) else {}
        deps = list(project.get("dependencies", []) or [])  # first: what every install gets
        for extra in (project.get("optional-dependencies", {}) or {}).values():
            deps.extend(extra or [])
        for dep in deps:
            spec = _requirement_spec(dep) if isinstance(dep, str) else None
            if spec:
                found = from_specifier(spec, f"{pyproject} dependencies: jax{spec}")
                if found:
                    return found
        tool = data.get("tool") if isinstance(data.get("tool"), dict) else {}
        poetry = tool.get("poetry", {}) if isinstance(tool.get("poetry"), dict) else {}
        poetry = poetry.get("dependencies", {})
        if isinstance(poetry, dict) and "jax" in poetry:
            value = poetry["jax"]
            spec = value.get("version", "") if isinstance(value, dict) else str(value)
            spec = str(spec).strip()
            # Poetry: a bare version is an exact pin (`jax = "0.4.30"`)
            exact_pin = "==" + spec if spec[:1].isdigit() else spec
            found = from_specifier(
                exact_pin, f"{pyproject} [tool.poetry.dependencies] jax = {spec!r}"
            )
            if found:
                return found
    for name in sorted(os.listdir(root)) if os.path.isdir(root) else ():
        if not (name.startswith("requirements") and name.endswith((".txt", ".in"))):
            continue
        path = os.path.join(root, name)
        try:
            with open(path, encoding="utf-8") as fh:
                lines = fh.read().splitlines()
        except (OSError, UnicodeDecodeError):
            continue
        for line in lines:
            spec = _requirement_spec(line)
            if spec:
                found = from_specifier(spec, f"{path}: jax{spec}")
                if found:
                    return found
    return _conda(root)


# `- jax=0.4.30`, `- conda-forge::jax>=0.4,<0.5`, `- "jax 0.4.*"`, `- jax[cuda12]==0.4.30` (pip:)
_CONDA = re.compile(
    r"""^\s*-\s*["']?(?:[\w.-]+::)?jax(?:\[[^\]]*\])?(?:\s+|(?=[<>=!~]))(?P<spec>[^"'#]*)""",
    re.IGNORECASE,
)


def _conda_spec(spec: str) -> str:
    """A conda match spec's version -> PEP 440: `=0.4.30` (conda: 0.4.30.*) -> `==0.4.30.*`;
    a bare `0.4.30` is a pin; `0.4.*` and PEP 440 operators pass through."""
    spec = spec.strip().split()[0] if spec.strip() else ""
    if spec.startswith("=") and not spec.startswith("=="):
        return "==" + spec[1:] + ("" if spec.endswith("*") else ".*")
    if spec[:1].isdigit():
        return "==" + spec
    return spec


def _conda(root: str) -> JaxTarget | None:
    """The `jax` of a conda environment file (its pip: section too), read line by line:
    static lint reads no YAML library, and the entries it needs are one per line."""
    for name in ("environment.yml", "environment.yaml"):
        path = os.path.join(root, name)
        if not os.path.isfile(path):
            continue
        try:
            with open(path, encoding="utf-8") as fh:
                lines = fh.read().splitlines()
        except (OSError, UnicodeDecodeError):
            continue
        for line in lines:
            m = _CONDA.match(line)
            if m is None or not m.group("spec").strip():
                continue
            raw = m.group("spec").strip()
            shown = f"jax{raw}" if raw[:1] in "<>=!~" else f"jax {raw}"
            found = from_specifier(_conda_spec(raw), f"{path}: {shown}")
            if found:
                return found
    return None


def installed() -> JaxTarget | None:
    """The installed `jax` distribution's version, from its metadata (JAX is not imported)."""
    from importlib import metadata

    try:
        version = metadata.version("jax")
    except metadata.PackageNotFoundError:
        return None
    try:
        return exact(version, f"installed jax {version} (package metadata)")
    except ValueError:
        return None


_VERSION_TEXT = r"v?\d+(?:\.\d+){0,3}(?:\.?(?:a|b|rc|dev|post)\d*)*"
_VERSION_FULL = re.compile(_VERSION_TEXT + r"\Z", re.IGNORECASE)
_CLAUSE_FULL = re.compile(
    r"(?:===|==|~=|!=|<=|>=|<|>|\^|~)\s*(?:" + _VERSION_TEXT + r"|\d+(?:\.\d+)*\.\*)\Z",
    re.IGNORECASE,
)
ACCEPTED = (
    'a version ("0.12", "0.10.2") or a constraint of comma-separated clauses'
    ' (">=0.6,<0.11", "==0.5.3", "~=0.10.0", "^0.4.30", "==0.11.*")'
)


def check(value: object, where: str) -> str:
    """Validates a `target-jax` setting; returns it as text. Every character must belong to a
    version or a clause: `0.6-0.12` is rejected (read leniently it would silently be 0.6),
    and the error lists the accepted forms."""
    if not isinstance(value, str) or not value.strip():
        raise UsageError(f"{where}: `target-jax` must be {ACCEPTED}")
    text = value.strip()
    if text[0].isdigit() or text[0] in "vV":
        ok = bool(_VERSION_FULL.match(text))
    else:
        clauses = [c.strip() for c in text.split(",")]
        ok = all(_CLAUSE_FULL.match(c) for c in clauses) and any(
            not c.startswith("!=") for c in clauses
        )
    if not ok or from_setting_or_none(text) is None:
        raise UsageError(f"{where}: `target-jax` {text!r} is not understood; use {ACCEPTED}")
    return text


def from_setting_or_none(text: str) -> JaxTarget | None:
    try:
        return from_setting(text, "check")
    except (UsageError, ValueError):
        return None


def from_setting(text: str, source: str) -> JaxTarget:
    """`"0.12"` (one version) or a constraint (`">=0.6,<0.11"`): `0.5.3` is `==0.5.3`."""
    if text[:1].isdigit() or text[:1] in "vV":
        return exact(text, source)
    found = from_specifier(text, source)
    if found is None:
        raise UsageError(f"{source}: `target-jax` {text!r} is not a version or a constraint")
    return found


ENV_VAR = "JAXLINT_TARGET_JAX"


def resolve(setting: str | None, setting_source: str | None, root: str) -> JaxTarget:
    """The target for a configuration root."""
    if setting:
        return _resolve(setting, setting_source or "configuration", root)
    ambient = os.environ.get(ENV_VAR, "").strip()
    if ambient:
        return _resolve(check(ambient, ENV_VAR), f"${ENV_VAR}", root)
    return _resolve(None, None, root)


@lru_cache(maxsize=256)
def _resolve(setting: str | None, setting_source: str | None, root: str) -> JaxTarget:
    """Cached: inference reads files once per root."""
    if setting:
        return from_setting(setting, setting_source or "configuration")
    return declared(root) or installed() or newest()


# -- what JAX 0.11 / 0.12 changed, and where jaxlint covers it --------------------------------------


@dataclass(frozen=True)
class Change:
    """One removal, deprecation or behaviour change of JAX 0.11/0.12 a user can hit
    (reference/jax-0.12-facts.md), the rule that covers it, or why none does."""

    what: str
    version: str
    token: str  # text the covering rule's docs or examples mention
    code: str | None = None
    out_of_scope: str = ""


CHANGES_011_012: tuple[Change, ...] = (
    Change(
        "35 `jax.core` names (`CallPrimitive`, `DebugInfo`, `new_jaxpr_eqn`, ...) removed",
        "0.11",
        "new_jaxpr_eqn",
        "JAX806",
    ),
    Change(
        "`jax.core.pytype_aval_mappings` still deprecated",
        "0.10-0.12",
        "pytype_aval_mappings",
        "JAX806",
    ),
    Change(
        "`jax.extend.core.CallPrimitive`, `call_impl` removed", "0.11.1", "CallPrimitive", "JAX806"
    ),
    Change(
        "`jax.core.InconclusiveDimensionOperation`, `JaxprTypeError` only in `jax.errors`",
        "0.11",
        "JaxprTypeError",
        "JAX806",
    ),
    Change(
        "`jax.interpreters.pxla` internals (`Index`, `MeshExecutable`, ...) removed",
        "0.11",
        "MeshExecutable",
        "JAX809",
    ),
    Change(
        "`jax.interpreters.pxla.thread_resources` etc. still deprecated",
        "0.12",
        "thread_resources",
        "JAX809",
    ),
    Change("`jax.cloud_tpu_init` removed", "0.11", "cloud_tpu_init", "JAX804"),
    Change("`jax.experimental.shard_alike` removed", "0.11.2", "shard_alike", "JAX804"),
    Change(
        "`jax.experimental.control_deps` removed (moved to `overlap`, then dropped)",
        "0.11.1",
        "control_deps",
        "JAX804",
    ),
    Change("`jax.custom_remat` existed only in 0.11", "0.12", "custom_remat", "JAX810"),
    Change("`jax.lax.psend` / `precv` deprecated", "0.12", "psend", "JAX810"),
    Change("`jax.lax.dce_sink_p` removed", "0.11", "dce_sink_p", "JAX810"),
    Change(
        "positional `copy`/`order`/`ndmin` to `jnp.array` is a `TypeError`",
        "0.12",
        "ndmin",
        "JAX811",
    ),
    Change("`jax.make_mesh(axis_shapes=)` renamed `axis_sizes`", "0.11.1", "axis_shapes", "JAX811"),
    Change("`jax.checkpoint(concrete=)` is a `TypeError`", "0.11", "concrete", "JAX811"),
    Change(
        "`jax.pure_callback(vectorized=)` fails at run time", "0.10-0.12", "vectorized", "JAX811"
    ),
    Change(
        "config `jax_exec_time_optimization_effort`, `jax_memory_fitting_effort` removed",
        "0.11.1",
        "jax_memory_fitting_effort",
        "JAX808",
    ),
    Change(
        "config `jax_refs_to_pins`, `jax_pallas_use_mosaic_gpu` removed",
        "0.11-0.12",
        "jax_refs_to_pins",
        "JAX808",
    ),
    Change(
        "config `jax_ragged_dot_use_gpu_pallas_triton_lowering` removed",
        "0.12",
        "jax_ragged_dot_use_gpu_pallas_triton_lowering",
        "JAX808",
    ),
    Change(
        "`jnp.empty` / `empty_like` return uninitialized memory (zeros before)",
        "0.11",
        "empty",
        "JAX812",
    ),
    Change(
        "`jnp.cross` of 2-element vectors is a `ValueError`",
        "0.12",
        "cross",
        out_of_scope="the vector length is rarely visible statically; JAX's error is clear and names the fix",
    ),
    Change(
        "tracer error texts (`x[:n]` slice message; `jnp.compress` raises the parent `ConcretizationTypeError`)",
        "0.11",
        "compress",
        out_of_scope="messages of errors JAX already raises; jaxlint's verifiers classify by exception class",
    ),
    Change(
        "documentation URLs in the key-reuse and donation messages",
        "0.11",
        "URL",
        out_of_scope="message text only; no code is wrong",
    ),
    Change(
        "`jax.random.Key` (annotation-only `NewType`; `isinstance(k, jax.random.Key)` raises `TypeError`)",
        "0.12",
        "Key",
        out_of_scope="an addition, not a removal; misuse fails loudly on first call",
    ),
)


def forget() -> None:
    """Drop the cached targets (a long-running server after a pyproject.toml changed)."""
    _resolve.cache_clear()
