"""The JAX3xx/JAX8xx migration tables against the installed JAX, so they cannot drift.

Checked in one subprocess with real JAX (warnings recorded):
- every rename target of every table resolves (attribute or module), without a warning;
- every old name fails (AttributeError / ImportError) or, where the table says deprecated,
  at least warns;
- every JAX name and keyword that the rules' own fix examples *write* exists: the fixed
  texts are parsed and their `jax.*` references and call keywords resolved;
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
from jaxlint.analysis.transforms import PARTIAL
from jaxlint.engine import LintOptions, fix_text
from jaxlint.rules import ALL_RULES
from jaxlint.rules.deprecations import (
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


def table() -> tuple[list[str], list[str], list[tuple[str, str]]]:
    """(new object names, new module names, (old name, "fail" | "warn"))."""
    names, modules, old = set(), set(), []
    for rule in _rename_rules():
        for name, move in rule._moves.items():
            status = move.status or rule.status
            expect = "warn" if "deprecat" in status else "fail"
            if name not in QUIET_OLD:
                old.append((name, expect))
            if move.new and move.new.startswith("jax"):
                (modules if move.module else names).add(move.new)
    return sorted(names), sorted(modules), sorted(old)


def _fixed_texts() -> list[str]:
    out = []
    for rule in ALL_RULES:
        if not rule.code.startswith(FAMILIES):
            continue
        opts = LintOptions(codes=frozenset({rule.code}))
        for before, _after in rule.examples.fixes:
            out.append(fix_text(snippet(before), "ex.py", opts).text)
        for before, _after in rule.examples.unsafe_fixes:
            out.append(fix_text(snippet(before), "ex.py", opts, unsafe=True).text)
    return out


def written_references() -> tuple[list[str], list[tuple[str, list[str]]]]:
    """JAX names and (callable, keywords) pairs that the fixes write."""
    names: set[str] = set()
    keywords: dict[str, set[str]] = {}
    for text in _fixed_texts():
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
                    keywords.setdefault(q, set()).update(k.arg for k in node.keywords if k.arg)
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
    names, modules, old = table()
    written, keywords = written_references()
    data = {
        "names": sorted(set(names) | set(written)),
        "modules": modules,
        "old": old,
        "warn_on_call": sorted(WARN_ON_CALL),
        "keywords": keywords,
        "config_removed": sorted({*REMOVED_CONFIG, *PMAP_CONFIG}),
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
