"""Notebook positions in the file GitHub shows (issue 27 item 5), and cells IPython runs that
Python alone would not parse (item 9: a first line indented by one space)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jaxlint.engine import LintOptions
from jaxlint.files.notebook import (
    file_position,
    fix_notebook_text,
    lint_notebook_text,
    source_positions,
)


def _notebook(*cells: object, indent: int = 1) -> str:
    """A notebook whose code cells have `cells` as sources (a list of lines, or one string),
    after a markdown cell and with an output holding a long string, as real files have."""
    out = [{"cell_type": "markdown", "metadata": {}, "source": ["# title\n", "text\n"]}]
    for src in cells:
        out.append(
            {
                "cell_type": "code",
                "execution_count": 1,
                "metadata": {},
                "outputs": [{"data": {"image/png": "iVBOR" * 2000}, "output_type": "display_data"}],
                "source": src,
            }
        )
    nb = {"cells": out, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(nb, indent=indent) + "\n"


TREE = ["import jax\n", "\n", "y = jax.tree_map(abs, [1])\n"]


def _file_line(text: str, needle: str) -> tuple[int, int]:
    for n, line in enumerate(text.split("\n"), start=1):
        if needle in line:
            return n, line.index(needle) + 1
    raise AssertionError(needle)


@pytest.mark.parametrize("indent", [1, 2, None])
def test_source_positions_map_cell_lines_to_file_lines(indent):
    text = _notebook(TREE, "a = 1\nb = 2\n", indent=indent)
    rows = source_positions(text)
    row, col = file_position(rows, 1, 3, 4)  # cell 2 (index 1), line 3, `jax.tree_map`
    assert text.split("\n")[row - 1][col:].startswith("jax.tree_map")
    # one string with escaped newlines: every line is on the string's own JSON line
    row2, _ = file_position(rows, 2, 2, 0)
    assert '"a = 1\\nb = 2\\n"' in text.split("\n")[row2 - 1]
    assert file_position(rows, 1, 9, 0) is None
    assert source_positions("not json") == {}


def _cli(tmp_path: Path, monkeypatch, capsys, *args: str) -> str:
    from jaxlint.cli import main

    monkeypatch.chdir(tmp_path)
    main(["check", "--no-cache", "--select", "JAX801", *args])
    return capsys.readouterr().out


def test_sarif_and_github_point_at_the_ipynb_line(tmp_path: Path, monkeypatch, capsys):
    """GitHub code scanning ignores `properties.cell`: the region must be the line of the
    .ipynb file that holds the flagged source (it was the cell's row, a line of the JSON)."""
    text = _notebook(TREE)
    (tmp_path / "nb.ipynb").write_text(text)
    want_line, want_col = _file_line(text, "jax.tree_map")
    sarif = json.loads(_cli(tmp_path, monkeypatch, capsys, "--format", "sarif", "nb.ipynb"))
    (result,) = sarif["runs"][0]["results"]
    region = result["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (want_line, want_col)
    assert region["endLine"] == want_line and region["endColumn"] == want_col + 12
    assert result["properties"]["cell"] == 2 and result["properties"]["cellLine"] == 3
    github = _cli(tmp_path, monkeypatch, capsys, "--format", "github", "nb.ipynb")
    assert f"file=nb.ipynb,line={want_line},col={want_col}," in github
    assert "::cell 2, line 3: JAX801" in github
    # the other formats keep the cell's own rows
    concise = _cli(tmp_path, monkeypatch, capsys, "--format", "concise", "nb.ipynb")
    assert "nb.ipynb:cell 2:3:5: JAX801" in concise


INDENTED = [" import jax\n", " import numpy as np\n", " y = jax.tree_map(abs, [1])\n"]


def test_a_cell_indented_by_one_space_is_linted_as_ipython_runs_it():
    """IPython's `leading_indent` removes the first line's indentation from each line before
    running the cell, so ` x = 1` runs: it is no JAX000, and findings keep the cell's columns."""
    text = _notebook(INDENTED)
    options = LintOptions(codes=frozenset({"JAX801"}))
    (d,) = lint_notebook_text(text, options, "nb.ipynb")
    assert d.code == "JAX801" and (d.cell, d.line, d.col) == (1, 3, 5)
    assert d.fix is None  # the fixer leaves such cells alone: no fix is offered either
    both = _notebook(INDENTED, TREE)
    result, fixed = fix_notebook_text(both, "nb.ipynb", options, unsafe=False)
    assert len(result.fixed) == 1  # the plain cell is fixed
    nb = json.loads(fixed)
    assert nb["cells"][1]["source"] == INDENTED  # the indented one is untouched
    assert "jax.tree.map" in "".join(nb["cells"][2]["source"])
    assert [(r.cell, r.line) for r in result.remaining if r.code == "JAX801"] == [(1, 3)]


def test_add_noqa_keeps_an_indented_cells_indentation():
    from jaxlint.files.notebook import add_noqa_notebook

    text = _notebook(INDENTED)
    new, added, left = add_noqa_notebook(text, LintOptions(codes=frozenset({"JAX801"})), "n")
    assert (added, left) == (1, 0)
    src = json.loads(new)["cells"][1]["source"]
    assert src[:2] == INDENTED[:2] and src[2] == " y = jax.tree_map(abs, [1])  # noqa: JAX801\n"
