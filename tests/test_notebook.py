"""Notebooks: cells linted with names from earlier cells, fixed in place, nothing else touched."""

from __future__ import annotations

import json

import pytest

CELLS = [
    {"cell_type": "markdown", "id": "m1", "metadata": {}, "source": ["# Notes é\n"]},
    {
        "cell_type": "code",
        "execution_count": 1,
        "id": "c1",
        "metadata": {"tags": ["x"]},
        "outputs": [{"name": "stdout", "output_type": "stream", "text": ["hi\n"]}],
        "source": ["%load_ext autoreload\n", "import jax.numpy as jnp\n", "import jax\n"],
    },
    {
        "cell_type": "code",
        "execution_count": 2,
        "id": "c2",
        "metadata": {},
        "outputs": [],
        "source": ["%%timeit\n", "jax.tree_map(abs, [1])\n"],
    },
    {
        "cell_type": "code",
        "execution_count": 3,
        "id": "c3",
        "metadata": {},
        "outputs": [],
        "source": [
            "x = jnp.zeros(3)\n",
            "!echo shell\n",
            "for i in range(2):\n",
            "    %time y = 1\n",
            "x[0] = 1.0\n",
            "f = jax.tree_map",
        ],
    },
]


def _nb(**style):
    return json.dumps(
        {
            "cells": CELLS,
            "metadata": {"kernelspec": {"name": "python3"}},
            "nbformat": 4,
            "nbformat_minor": 5,
        },
        **style,
    )


@pytest.mark.parametrize(
    "style,newline",
    [
        ({"indent": 1, "ensure_ascii": False}, "\n"),
        ({"indent": 2, "ensure_ascii": True}, "\n"),
        ({"separators": (",", ":")}, ""),
    ],
)
def test_notebook_fix_touches_only_source_lines(tmp_path, run_cli, style, newline):
    p = tmp_path / "nb.ipynb"
    original = _nb(**style) + newline
    p.write_text(original, encoding="utf-8")
    proc = run_cli("check", "--format", "json", "nb.ipynb")
    found = [(d["code"], d["cell"], d["location"]["row"]) for d in json.loads(proc.stdout)]
    assert found == [("JAX501", 4, 5), ("JAX801", 4, 6)]
    assert p.read_text(encoding="utf-8") == original
    run_cli("check", "--fix", "nb.ipynb")
    after = p.read_text(encoding="utf-8")
    nb = json.loads(after)
    assert nb["cells"][3]["source"] == [
        "x = jnp.zeros(3)\n",
        "!echo shell\n",
        "for i in range(2):\n",
        "    %time y = 1\n",
        "x = x.at[0].set(1.0)\n",
        "f = jax.tree.map",
    ]
    assert nb["cells"][:3] == CELLS[:3]
    expected = json.loads(original)
    expected["cells"][3]["source"] = nb["cells"][3]["source"]
    assert after == json.dumps(expected, **style) + newline
    assert run_cli("check", "nb.ipynb").returncode == 0


def test_notebook_diff_does_not_write(tmp_path, run_cli):
    p = tmp_path / "nb.ipynb"
    original = _nb(indent=1) + "\n"
    p.write_text(original)
    proc = run_cli("check", "--diff", "nb.ipynb")
    assert proc.returncode == 1 and "jax.tree.map" in proc.stdout
    assert p.read_text() == original
