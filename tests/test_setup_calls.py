"""analysis/setup_calls: a set-up function runs only from module-level calls before a point.

Why: JAX503 skips a global rebound by such a function (the trace bakes in the value it set);
each case below is a way the answer could wrongly say "only before" and hide a stale global."""

from __future__ import annotations

import ast
import textwrap

import pytest

from jaxlint.analysis import ModuleFacts
from jaxlint.analysis.setup_calls import runs_only_before

SETUP = """
def {name}(v):
    global g
    g = v
"""


def _ask(body: str, name: str = "setup", script: bool = True) -> bool:
    src = textwrap.dedent(SETUP.format(name=name)) + textwrap.dedent(body)
    tree = ast.parse(src)
    facts = ModuleFacts(tree)
    index = facts.index
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    reader = next(
        s
        for s in ast.walk(tree)
        if isinstance(s, ast.stmt) and "reader" in ast.unparse(s).split("\n")[0]
    )
    top = next(s for s in tree.body if s is reader or reader in ast.walk(s))
    return runs_only_before(index, fn, top, script=script)


def test_called_once_before_the_reader():
    assert _ask("setup(1)\ndef reader(x):\n    return x * g\n")


def test_private_setup_counts_in_a_library_module():
    assert _ask("_setup(1)\ndef reader(x):\n    return x * g\n", name="_setup", script=False)


@pytest.mark.parametrize(
    "body,script",
    [
        # called again after the reader exists
        ("setup(1)\ndef reader(x):\n    return x * g\nsetup(2)\n", True),
        # never called here: another module (or a later cell) may call it any time
        ("def reader(x):\n    return x * g\n", True),
        # called from a function, which may run at any time
        ("def main():\n    setup(2)\nsetup(1)\ndef reader(x):\n    return x * g\n", True),
        # passed as a value
        ("cb = setup\nsetup(1)\ndef reader(x):\n    return x * g\n", True),
        # a loop that defines the reader runs the call again after it
        ("for v in (1, 2):\n    setup(v)\n    def reader(x):\n        return x * g\n", True),
        # a public set-up function of a library module: importers may call it later
        ("setup(1)\ndef reader(x):\n    return x * g\n", False),
        # exported
        ("__all__ = ['setup']\nsetup(1)\ndef reader(x):\n    return x * g\n", True),
    ],
)
def test_not_proven(body, script):
    assert not _ask(body, script=script)
