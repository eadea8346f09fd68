"""Which top-level expression statements an interactive session displays.

In a notebook every code cell's last expression is shown (IPython's `Out[n]`), and editors
run a `.py` file in the percent format (`# %%` lines start cells: VS Code, Spyder, Jupytext)
the same way, cell by cell. A bare expression there is written to be looked at, not a value
thrown away (v14 check half, rl_with_jax `trpo/debug.py:314`: `jnp.linalg.norm(...)` with the
shown value in a comment, JAX504). jaxlint lints a notebook as its cells joined, so in a
`.ipynb` any top-level expression may end a cell; in a percent-format script only one that no
other statement of its cell follows.
"""

from __future__ import annotations

import ast
import re

from jaxlint.analysis.syntax import enclosing_function
from jaxlint.core.source import SourceText

__all__ = ["displayed", "has_cell_markers"]

CELL_MARKER = re.compile(r"^#\s*%%")


def displayed(tree: ast.Module, source: SourceText, path: str, stmt: ast.stmt) -> bool:
    """`stmt`, an expression statement, is (or may be) the displayed result of a cell. In a
    notebook, any expression statement outside a function counts (the cells are joined, and a
    top-level loop or `if` may end one); in a percent-format script, a top-level one."""
    if not isinstance(stmt, ast.Expr):
        return False
    if path.endswith(".ipynb"):
        return enclosing_function(stmt) is None
    if stmt not in tree.body:
        return False
    markers = _markers(source)
    if not markers:
        return False
    i = tree.body.index(stmt)
    end = stmt.end_lineno or stmt.lineno
    following = tree.body[i + 1].lineno if i + 1 < len(tree.body) else source.line_count + 1
    # no statement of the same cell after it: the next one starts after a cell marker
    return any(end < m < following for m in markers) or i + 1 == len(tree.body)


_ANY_MARKER = re.compile(r"^[ \t]*#\s*%%", re.MULTILINE)


def has_cell_markers(text: str) -> bool:
    """Some line of `text` starts a cell (`CELL_MARKER`, after indentation): a percent-format
    script, whose top-level expressions `displayed` may count as shown."""
    return "%%" in text and _ANY_MARKER.search(text) is not None


def _markers(source: SourceText) -> list[int]:
    """The lines that start a cell (`# %%`, `# %% [markdown]`)."""
    if "%%" not in source.text:
        return []
    return [
        n for n in range(1, source.line_count + 1) if CELL_MARKER.match(source.line(n).lstrip())
    ]
