"""Which pytest modules run in one session with a test module that turns x64 on at import.

pytest imports every test module of a run while it collects, before any test runs: a test
module that calls `jax.config.update("jax_enable_x64", True)` at module level turns x64 on for
the tests of every other module of that run (v37 rows, tuning material: wakesim's
tests/test_frames.py and tests/test_gb.py do, and CI runs `pytest` once over tests/: JAX701 on
tests/test_hybrid_misc.py was a false positive). The run is taken to start at the outermost
`tests` folder above the module (else its own folder). A test that turns x64 on for itself
(`setUpModule`, a test function, a `with jax.enable_x64():` block) does so at run time, for
itself only, and an `if __name__ == "__main__":` block never runs under pytest: neither counts.
"""

from __future__ import annotations

import ast
import os
import re

from jaxlint.analysis.syntax import FUNCTION_NODES

__all__ = ["enables_at_collection", "pytest_module", "test_root"]

_PYTEST_MODULE = re.compile(r"^(test_.*|.*_test)\.py$")
_TEST_FOLDERS = frozenset({"test", "tests", "testing"})


def pytest_module(name: str) -> bool:
    """A file name pytest collects by default (`test_*.py`, `*_test.py`)."""
    return bool(_PYTEST_MODULE.match(name))


def test_root(path: str, root: str) -> str:
    """The folder a pytest run over a test module's suite starts from: the outermost `tests`
    (`test`, `testing`) folder above it inside the project, else the module's own folder."""
    rel = os.path.relpath(os.path.dirname(path), root).split(os.sep)
    for i, part in enumerate(rel):
        if part in _TEST_FOLDERS:
            return os.path.join(root, *rel[: i + 1])
    return os.path.dirname(path)


def enables_at_collection(tree: ast.Module, text: str, enables: re.Pattern[str]) -> bool:
    """The module (`tree`, parsed from `text` by the caller's one parse) turns x64 on at
    module level, outside every def and class and outside an `if __name__ == "__main__":`
    block (which pytest never runs): when pytest imports it."""
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        stmt = todo.pop()
        if isinstance(stmt, (*FUNCTION_NODES, ast.ClassDef)):
            continue
        if isinstance(stmt, ast.If) and "__main__" in ast.unparse(stmt.test):
            continue
        if isinstance(stmt, (ast.If, ast.Try, ast.With)):
            for block in ("body", "orelse", "finalbody"):
                todo.extend(getattr(stmt, block, []))
            for handler in getattr(stmt, "handlers", []):
                todo.extend(handler.body)
            continue
        if enables.search(ast.get_source_segment(text, stmt) or ""):
            return True
    return False
