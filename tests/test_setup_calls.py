"""analysis/setup_calls: a set-up function runs only from module-level calls before a point.

Why: JAX503 skips a global rebound by such a function (the trace bakes in the value it set);
each case below is a way the answer could wrongly say "only before" and hide a stale global."""

from __future__ import annotations

import ast
import textwrap

import pytest

from jaxlint.analysis import ModuleFacts
from jaxlint.analysis.setup_calls import runs_only_before, set_before_every_call

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


# -- set_before_every_call: `main` sets the global once, then calls the reader ----------------

MAIN = """
import jax

g = None

@jax.jit
def reader(x):
    return x * g

def main():
    global g
{body}
"""


def _set_first(body: str, tail: str = "main()\n", script: bool = True) -> bool:
    src = MAIN.format(body=textwrap.indent(textwrap.dedent(body), "    ")) + tail
    tree = ast.parse(src)
    index = ModuleFacts(tree).index
    main = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "main")
    reader = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "reader")
    write = next(
        n
        for n in ast.walk(main)
        if isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "g" for t in n.targets)
    )
    return set_before_every_call(index, write, main, reader, script)


def test_set_in_main_before_the_calls_in_a_loop():
    assert _set_first("g = 2.0\nfor _ in range(3):\n    reader(1.0)\n")


def test_handed_on_as_a_value_after_the_write_is_still_before_every_call():
    # nothing can call the reader before its name is read in `main`, after the write (v37
    # djinnax: `engines = [("pgx", make_pgx)]` then `bench(make)`); `main` runs once
    assert _set_first("g = 2.0\ncb = reader\ncb(1.0)\n")


def test_set_on_one_branch_only_is_still_before_every_call():
    # a path that skips the write leaves the module's value, also never changed after a trace
    assert _set_first("if flag:\n    g = 2.0\nreader(1.0)\n")


@pytest.mark.parametrize(
    "body,tail,script",
    [
        # the loop that calls the reader rebinds it again in the next step
        ("for _ in range(3):\n    g = 2.0\n    reader(1.0)\n", "main()\n", True),
        # called before the write
        ("reader(1.0)\ng = 2.0\nreader(1.0)\n", "main()\n", True),
        # main runs twice: its second write follows the first run's trace
        ("g = 2.0\nreader(1.0)\n", "main()\nmain()\n", True),
        # main called in a loop
        ("g = 2.0\nreader(1.0)\n", "for _ in range(2):\n    main()\n", True),
        # the reader called from elsewhere too
        ("g = 2.0\nreader(1.0)\n", "main()\nreader(3.0)\n", True),
        # the reader handed on as a value before the write (it may run before it)
        ("cb = reader\ng = 2.0\ncb(1.0)\n", "main()\n", True),
        # called from a nested function of main (it may run at any time)
        ("g = 2.0\ndef later():\n    return reader(1.0)\nlater()\n", "main()\n", True),
        # a public main of a library module: importers may call it again
        ("g = 2.0\nreader(1.0)\n", "main()\n", False),
    ],
)
def test_not_set_before_every_call(body, tail, script):
    assert not _set_first(body, tail, script)


# the reader runs only through functions that run only from `main` (v25 rows, quantum-jax)

HELPER = """
def helper(x):
    return reader(x)
"""
STEP = """
@jax.jit
def step(i, x):
    return helper(x)
"""
MAKE = """
def make():
    def inner(x):
        return helper(x)
    return inner
"""


def test_set_before_a_fori_loop_that_runs_the_reader_through_helpers():
    tail = HELPER + STEP + "main()\n"
    assert _set_first("g = 2.0\nx = jax.lax.fori_loop(0, 3, step, 1.0)\n", tail)


def test_set_before_the_jitted_step_is_handed_to_a_transform():
    # `vstep = jax.vmap(step)` after the write: nothing runs `step` before that reference
    assert _set_first("g = 2.0\nvstep = jax.vmap(step)\n", HELPER + STEP + "main()\n")


def test_set_before_the_call_that_defines_a_closure_of_the_reader():
    tail = HELPER + MAKE + "main()\n"
    assert _set_first("g = 2.0\nf = jax.jit(make())\nf(1.0)\n", tail)


@pytest.mark.parametrize(
    "body,helpers",
    [
        # the loop body runs before the write
        ("x = jax.lax.fori_loop(0, 3, step, 1.0)\ng = 2.0\n", STEP),
        # the closure's maker runs before the write (the closure may be traced after it)
        ("f = jax.jit(make())\ng = 2.0\nf(1.0)\n", MAKE),
        # a helper on the way is also called at module level
        ("g = 2.0\nx = jax.lax.fori_loop(0, 3, step, 1.0)\n", STEP + "helper(3.0)\n"),
        # the jitted step handed to a transform before the write (run on the spot or not)
        ("vstep = jax.vmap(step)\ng = 2.0\nvstep(1.0, 2.0)\n", STEP),
        # a function on the way that nothing here calls (another module may, at any time)
        ("g = 2.0\nx = jax.lax.fori_loop(0, 3, step, 1.0)\n", STEP + MAKE),
        # a helper run from a closure of main itself (may run before the write)
        ("def early(x):\n    return helper(x)\nearly(1.0)\ng = 2.0\n", ""),
    ],
)
def test_not_set_before_every_run_through_helpers(body, helpers):
    assert not _set_first(body, HELPER + helpers + "main()\n")
