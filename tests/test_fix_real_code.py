"""`--fix --unsafe-fixes` over copies of installed flax/optax/equinox sources: nothing corrupted."""

from __future__ import annotations

import ast
import importlib.util
import os
import shutil
import warnings

import pytest

from jaxlint.engine import LintOptions, fix_text
from jaxlint.files.read import read_source
from jaxlint.rules import ALL_RULES

PACKAGES = ("flax", "optax", "equinox")


def _package_dirs():
    out = []
    for name in PACKAGES:
        spec = importlib.util.find_spec(name)  # locates without importing
        if spec and spec.submodule_search_locations:
            out.append((name, list(spec.submodule_search_locations)[0]))
    return out


@pytest.mark.slow
def test_fix_everything_on_real_code(tmp_path):
    dirs = _package_dirs()
    if not dirs:
        pytest.skip("none of flax/optax/equinox is installed")
    options = LintOptions(codes=frozenset(r.code for r in ALL_RULES))
    changed = unchanged = 0
    for name, src in dirs:
        dst = tmp_path / name
        shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__"))
        for root, _, files in os.walk(dst):
            for f in files:
                if not f.endswith(".py"):
                    continue
                path = os.path.join(root, f)
                with open(path, "rb") as fh:
                    before = fh.read()
                source = read_source(path)
                result = fix_text(source, path, options, unsafe=True)
                after = source.encode(result.text)
                if result.fixed:
                    changed += 1
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        ast.parse(result.text)
                    again = fix_text(result.text, path, options, unsafe=True)
                    assert again.text == result.text, f"second pass changed {path}"
                else:
                    unchanged += 1
                    assert after == before, f"{path} changed without a fix"
    assert unchanged > 100
    print(f"fixed files: {changed}, untouched: {unchanged}")
