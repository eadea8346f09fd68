"""The JAX3xx/JAX8xx migration tables against the installed JAX, so they cannot drift.

The tables say, per entry, when the old name was deprecated/removed and since when its
replacement exists; this test reads them *for the installed JAX* (the target is the installed
version) and runs in every environment of the CI matrix (0.6.2, 0.10.2, 0.12.0.1).
Checked in one subprocess with real JAX (warnings recorded):
- every rename target the table offers for this JAX resolves (attribute or module), without
  a warning;
- every old name that the table says is removed by this JAX fails (AttributeError /
  ImportError), one it says is deprecated at least warns, one it says is not yet either
  still resolves;
- every JAX name and keyword that the fix examples of *every* rule write when the target is
  this JAX exists: the fixed texts are parsed and their `jax.*` references and call keywords
  resolved, and their import statements executed;
- the removed config options are unrecognized and the renamed one exists;
- the array methods JAX811 writes work, and the spellings it replaces fail.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys

import pytest

from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.jax_api import PARTIAL
from jaxlint.core.config import Settings
from jaxlint.core.jaxversion import JaxTarget, exact, newest
from jaxlint.engine import LintOptions, fix_text
from jaxlint.rules import ALL_RULES
from jaxlint.rules.deprecations import (
    CONFIG_REMOVED_IN,
    PMAP_CONFIG,
    REMOVED_CONFIG,
    RENAMED_CONFIG,
    RenameRule,
)
from tests.conftest import snippet

FAMILIES = ("JAX3", "JAX8")
# old names that exist silently although their table entry says deprecated
QUIET_OLD = {
    "jax.experimental.shard_map": "the module imports silently; its `shard_map` warns",
}
# deprecated aliases that warn when called, not when looked up
WARN_ON_CALL = {"jax.host_count", "jax.host_id"}


def _rename_rules():
    return [r for r in ALL_RULES if issubclass(r, RenameRule) and r.code.startswith(FAMILIES)]


def installed_target() -> JaxTarget:
    """The installed JAX as the target (from its metadata; the newest when JAX is absent)."""
    from importlib import metadata

    try:
        return exact(metadata.version("jax"), "installed")
    except metadata.PackageNotFoundError:
        return newest()


def table(
    target: JaxTarget | None = None,
) -> tuple[list[str], list[str], list[tuple[str, str]]]:
    """(new object names, new module names, (old name, "fail" | "warn" | "exists")) for
    `target` (default: the newest JAX)."""
    target = target or newest()
    names, modules, old = set(), set(), []
    for rule in _rename_rules():
        applying, _ = rule.moves_for(target)
        for name, raw in rule._moves.items():
            move = applying.get(name)
            if move is None:
                if raw.introduced and not target.reaches(raw.introduced):
                    continue  # not yet added in this JAX
                expect = "exists"  # no target JAX deprecates it yet
            elif raw.removed or raw.deprecated:
                expect = "fail" if raw.removed and target.reaches(raw.removed) else "warn"
            else:
                expect = "warn" if "deprecat" in (move.status or rule.status) else "fail"
            if name not in QUIET_OLD:
                old.append((name, expect))
            if move is not None and move.new and move.new.startswith("jax"):
                (modules if move.module else names).add(move.new)
    return sorted(names), sorted(modules), sorted(old)


_PAIRS: dict[str, list[tuple[str, str]]] = {}


def _fixed_pairs(target: JaxTarget | None = None) -> list[tuple[str, str]]:
    """Every rule's fix examples as (before, fixed for `target`) (a rule's expected text is for
    the newest JAX; under an older target the fix may differ or be withheld)."""
    target = target or newest()
    if target.key() not in _PAIRS:
        _PAIRS[target.key()] = _compute_pairs(target)
    return _PAIRS[target.key()]


def _compute_pairs(target: JaxTarget) -> list[tuple[str, str]]:
    settings = Settings(target_jax=".".join(map(str, target.low)), target_jax_source="test")
    out = []
    for rule in ALL_RULES:
        if not (rule.examples.fixes or rule.examples.unsafe_fixes):
            continue
        opts = LintOptions(codes=frozenset({rule.code}), settings=settings)
        for before, _after in rule.examples.fixes:
            out.append((snippet(before), fix_text(snippet(before), "ex.py", opts).text))
        for before, _after in rule.examples.unsafe_fixes:
            fixed = fix_text(snippet(before), "ex.py", opts, unsafe=True).text
            out.append((snippet(before), fixed))
    return out


def _imports(text: str) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and not getattr(node, "level", 0):
            top = (node.module if isinstance(node, ast.ImportFrom) else node.names[0].name) or ""
            if top.split(".")[0] == "jax":
                out.add(ast.unparse(node))
    return out


def fixed_imports(target: JaxTarget | None = None) -> list[str]:
    """The JAX import statements the fixes add (executed against the installed JAX)."""
    out: set[str] = set()
    for before, after in _fixed_pairs(target):
        out |= _imports(after) - _imports(before)
    return sorted(out)


def _references(text: str) -> tuple[set[str], set[tuple[str, str]]]:
    names: set[str] = set()
    keywords: set[tuple[str, str]] = set()
    tree = ast.parse(text)
    index = ModuleIndex(tree)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Attribute, ast.Name)) and isinstance(node.ctx, ast.Load):
            q = index.qualname(node)
            if (
                q
                and q.startswith("jax.")
                and not isinstance(getattr(node, "jl_parent", None), ast.Attribute)
            ):
                names.add(q)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("jax"):
            names.update(f"{node.module}.{a.name}" for a in node.names)
        if isinstance(node, ast.Call) and node.keywords:
            func = node.func
            if index.qualname(func) in PARTIAL and node.args:
                func = node.args[0]
            q = index.qualname(func)
            if q and q.startswith("jax."):
                keywords.update((q, k.arg) for k in node.keywords if k.arg)
    return names, keywords


def written_references(
    target: JaxTarget | None = None,
) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """JAX names and (callable, keywords) pairs that the fixes write (not those the example
    already had: an example may itself use an API of a newer JAX)."""
    names: set[str] = set()
    keywords: dict[str, set[str]] = {}
    for before, after in _fixed_pairs(target):
        old_names, old_kws = _references(before)
        new_names, new_kws = _references(after)
        names |= new_names - old_names
        for q, k in new_kws - old_kws:
            keywords.setdefault(q, set()).add(k)
    return sorted(names), sorted((q, sorted(k)) for q, k in keywords.items())


DRIVER = r"""
import importlib, inspect, json, sys, warnings
import jax

def resolve(name):
    parts = name.split(".")
    obj, i = None, len(parts)
    while i > 0:
        try:
            obj = importlib.import_module(".".join(parts[:i]))
            break
        except ModuleNotFoundError:
            i -= 1
    if obj is None:
        raise ModuleNotFoundError(name)
    for p in parts[i:]:
        obj = getattr(obj, p)
    return obj

def attempt(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = fn()
            error = None
        except Exception as exc:  # noqa: BLE001
            value, error = None, f"{type(exc).__name__}: {exc}"
    noisy = [str(w.message) for w in caught
             if issubclass(w.category, (DeprecationWarning, UserWarning, FutureWarning))]
    return value, error, noisy

data = json.loads(sys.stdin.read())
problems = []
for name in data["names"]:
    _, error, noisy = attempt(lambda: resolve(name))
    if error or noisy:
        problems.append(f"new name {name}: {error or noisy}")
for name in data["modules"]:
    _, error, noisy = attempt(lambda: importlib.import_module(name))
    if error or noisy:
        problems.append(f"new module {name}: {error or noisy}")
for name, expect in data["old"]:
    if name in data["warn_on_call"]:
        _, error, noisy = attempt(lambda: resolve(name)())
    else:
        _, error, noisy = attempt(lambda: resolve(name))
    if expect == "fail" and error is None:
        problems.append(f"old name {name} still works{' (warns)' if noisy else ''}")
    if expect == "warn" and error is None and not noisy:
        problems.append(f"old name {name} works without a warning")
    if expect == "exists" and error is not None:
        problems.append(f"old name {name} is said to exist on this JAX: {error}")
for stmt in data["imports"]:
    _, error, noisy = attempt(lambda: exec(stmt, {}))
    if error or noisy:
        problems.append(f"fixed code `{stmt}`: {error or noisy}")
for name, kws in data["keywords"]:
    obj, error, _ = attempt(lambda: resolve(name))
    if error:
        problems.append(f"callable {name}: {error}")
        continue
    try:
        params = inspect.signature(obj).parameters
    except (TypeError, ValueError):
        continue
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        continue
    for kw in kws:
        p = params.get(kw)
        if p is None or p.kind is p.POSITIONAL_ONLY:
            problems.append(f"{name} has no keyword `{kw}`")
for option in data["config_removed"]:
    _, error, _ = attempt(lambda: jax.config.update(option, True))
    if error is None or "Unrecognized config option" not in error:
        problems.append(f"config option {option} is still recognized")
for old, new in data["config_renamed"].items():
    _, error, _ = attempt(lambda: jax.config.update(new, getattr(jax.config, new)))
    if error:
        problems.append(f"renamed config option {new}: {error}")
    _, error, _ = attempt(lambda: jax.config.update(old, True))
    if error is None:
        problems.append(f"config option {old} is still recognized")
# JAX811's array rewrites
x = jax.numpy.arange(3.0)
key = jax.random.key(0)
checks = {
    "x.device is a Device": lambda: isinstance(x.device, jax.Device) or 1 / 0,
    "x.addressable_data(0)": lambda: x.addressable_data(0),
    "x.addressable_shards": lambda: [s.data for s in x.addressable_shards],
    "jax.random.key_data(key)": lambda: jax.random.key_data(key),
}
for what, fn in checks.items():
    _, error, _ = attempt(fn)
    if error:
        problems.append(f"{what}: {error}")
for what, fn in {
    "x.device()": lambda: x.device(),
    "x.device_buffer": lambda: x.device_buffer,
    "x.device_buffers": lambda: x.device_buffers,
    "key.unsafe_raw_array()": lambda: key.unsafe_raw_array(),
}.items():
    _, error, _ = attempt(fn)
    if error is None:
        problems.append(f"{what} still works")
print(json.dumps({"version": jax.__version__, "problems": problems}))
"""


def test_table_is_not_empty_and_targets_are_dotted():
    names, modules, old = table()
    assert len(old) > 100 and len(names) > 40 and modules
    assert all(n.count(".") >= 1 for n in names + modules)


@pytest.mark.jax
def test_tables_match_installed_jax():
    pytest.importorskip("jax")
    target = installed_target()
    names, modules, old = table(target)
    written, keywords = written_references(target)
    data = {
        "names": sorted(set(names) | set(written)),
        "modules": modules,
        "old": old,
        "warn_on_call": sorted(WARN_ON_CALL),
        "keywords": keywords,
        "imports": fixed_imports(target),
        "config_removed": sorted(
            o for o in {*REMOVED_CONFIG, *PMAP_CONFIG} if target.reaches(CONFIG_REMOVED_IN.get(o))
        ),
        "config_renamed": RENAMED_CONFIG,
    }
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    proc = subprocess.run(
        [sys.executable, "-c", DRIVER],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["problems"] == [], f"JAX {report['version']}:\n" + "\n".join(report["problems"])
