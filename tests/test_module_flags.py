"""Code that never runs (analysis/module_flags.py, FlowGraphs.unreachable): the behavioural
families stay silent there (`Rule.report`). Why: a finding under `if DEBUG:` with `DEBUG =
False`, or after an unconditional `exit()`, describes behaviour that never happens (v24 rows)."""

from __future__ import annotations

import ast
import textwrap

from jaxlint.analysis import ModuleFacts


def _never_runs(src: str) -> dict[int, bool]:
    """Line -> whether the first call statement on that line never runs."""
    tree = ast.parse(textwrap.dedent(src))
    facts = ModuleFacts(tree)
    out: dict[int, bool] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            out.setdefault(node.lineno, facts.never_runs(node.value))
    return out


def test_a_switch_bound_once_to_false_turns_its_branch_off():
    got = _never_runs(
        """
        DEBUG = False
        VERBOSE = 1
        def f(x):
            if DEBUG:
                print(x)
            else:
                print(-x)
            if not DEBUG and x:
                print(x)
            if DEBUG and x:
                print(x)
            if VERBOSE or x:
                print(x)
            else:
                print(-x)
            y = 1 if DEBUG else 2
        """
    )
    assert got == {6: True, 8: False, 10: False, 12: True, 14: False, 16: True}


def test_a_switch_rebound_anywhere_or_shadowed_decides_nothing():
    got = _never_runs(
        """
        DEBUG = False
        TRACE = False
        def enable():
            global DEBUG
            DEBUG = True
        def f(x, TRACE=True):
            if DEBUG:
                print(x)
            if TRACE:
                print(x)
        for FLAG in (0, 1):
            pass
        FLAG = 0
        if FLAG:
            print(1)
        """
    )
    assert got == {9: False, 11: False, 16: False}


def test_an_if_on_a_literal_has_an_arm_that_never_runs():
    # the flow graph gives the arm no path (cfg_build.literal_truth), whether the literal is
    # written bare, behind `not` or as a walrus the author toggles (v32 zd_policy)
    got = _never_runs(
        """
        def f(x):
            if (train_ae_only := False):
                print(x)
            else:
                print(-x)
            if 0:
                print(x)
            if not None:
                print(x)
            else:
                print(-x)
            if True:
                print(x)
            if ...:
                print(x)
            if (flag := x):
                print(x)
        """
    )
    assert got == {4: True, 6: False, 8: True, 10: False, 12: True, 14: False, 16: False, 18: False}


def test_statements_after_a_process_exit_never_run():
    got = _never_runs(
        """
        import sys
        def f(x):
            print(x)
            sys.exit(0)
            print(-x)
        def g(x):
            if x:
                exit()
            print(x)
        def h(x, exit):
            exit()
            print(x)
        """
    )
    assert got == {4: False, 5: False, 6: True, 9: False, 10: False, 12: False, 13: False}


def test_a_def_in_dead_code_never_runs_its_body():
    got = _never_runs(
        """
        def outer(x):
            return x
            def inner(y):
                print(y)
            inner(x)
        """
    )
    assert got == {5: True, 6: True}


def test_a_loop_over_an_empty_literal_range_never_runs_its_body():
    got = _never_runs(
        """
        def f(x, n):
            for epoch in range(0):
                print(x)
            for i in range(3, 3):
                print(i)
            for i in range(1):
                print(i)
            for i in range(n):
                print(i)
            else:
                print(n)
        """
    )
    assert got == {4: True, 6: True, 8: False, 10: False, 12: False}
