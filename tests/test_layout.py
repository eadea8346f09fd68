"""The size and placement rules of shared/ARCHITECTURE.md §5, as a test.

A newcomer finds a rule, with its docs, examples, check and fix, in one file under
`jaxlint/rules/<family>/`; no file in `jaxlint/` is over 800 lines and no function over 100,
so each can be read at once. Today's exceptions are listed below, one per line; each refactoring
step removes its rows, and a new exception fails here.
"""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent / "jaxlint"
MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 100

# files over MAX_FILE_LINES today; shrink this list, never grow it
# (the three below grew past the limit in the merges of 2026-12-02, issues 23-24: the key-flow
# facts for library constructors and split children, the loop facts of JAX401/405; each is to be
# split along its seams: library key tables out of keys.py, per-step detection out of loops.py)
LONG_FILES: set[str] = {
    "analysis/flow/key_repeats.py",
    "analysis/flow/keys.py",
    "analysis/loops.py",
}

# functions over MAX_FUNCTION_LINES today ("file:function"); shrink this list, never grow it
LONG_FUNCTIONS: set[str] = {
    "runtime/kinds/draws.py:check",  # grew on 2026-12-02 (issue 25); to split
}

# rule modules that still hold more than one rule class, or sit outside rules/<family>/
SHARED_RULE_MODULES: set[str] = set()


def _files() -> dict[str, pathlib.Path]:
    return {p.relative_to(ROOT).as_posix(): p for p in sorted(ROOT.rglob("*.py"))}


def test_no_file_over_800_lines():
    long = {
        rel
        for rel, path in _files().items()
        if path.read_text(encoding="utf-8").count("\n") > MAX_FILE_LINES
    }
    new = sorted(long - LONG_FILES)
    assert not new, f"files over {MAX_FILE_LINES} lines: {new}"
    gone = sorted(LONG_FILES - long)
    assert not gone, f"no longer over {MAX_FILE_LINES} lines, so remove from LONG_FILES: {gone}"


def test_no_function_over_100_lines():
    long = set()
    for rel, path in _files().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES:
                    long.add(f"{rel}:{node.name}")
    new = sorted(long - LONG_FUNCTIONS)
    assert not new, f"functions over {MAX_FUNCTION_LINES} lines: {new}"
    gone = sorted(LONG_FUNCTIONS - long)
    assert not gone, f"now short, so remove from LONG_FUNCTIONS: {gone}"


def test_one_rule_per_file_under_its_family():
    from jaxlint.rules import ALL_RULES

    by_module: dict[str, list[str]] = {}
    for rule in ALL_RULES:
        by_module.setdefault(rule.__module__, []).append(rule.code)
    shared = set()
    for module, codes in by_module.items():
        parts = module.split(".")
        rel = "/".join(parts[1:]) + ".py"
        if len(codes) > 1 or len(parts) != 4 or parts[1] != "rules":
            shared.add(rel)
    new = sorted(shared - SHARED_RULE_MODULES)
    assert not new, f"rule modules with more than one rule or outside rules/<family>/: {new}"
    gone = sorted(SHARED_RULE_MODULES - shared)
    assert not gone, f"split, so remove from SHARED_RULE_MODULES: {gone}"
