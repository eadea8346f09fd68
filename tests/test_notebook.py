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
    proc = run_cli("check", "--preview", "--format", "json", "nb.ipynb")
    found = [(d["code"], d["cell"], d["location"]["row"]) for d in json.loads(proc.stdout)]
    # the in-place update (JAX501, a safe fix) is in preview after the v13 check set: the run
    # turns preview on, as the test is about the notebook face, not the default selection
    # the `%%timeit` cell is linted, as ruff does (its body is Python)
    assert found == [("JAX801", 3, 2), ("JAX501", 4, 5), ("JAX801", 4, 6)]
    assert p.read_text(encoding="utf-8") == original
    run_cli("check", "--preview", "--fix", "nb.ipynb")
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
    assert nb["cells"][2]["source"] == ["%%timeit\n", "jax.tree.map(abs, [1])\n"]
    assert nb["cells"][:2] == CELLS[:2]
    expected = json.loads(original)
    expected["cells"][2]["source"] = nb["cells"][2]["source"]
    expected["cells"][3]["source"] = nb["cells"][3]["source"]
    assert after == json.dumps(expected, **style) + newline
    assert run_cli("check", "--preview", "nb.ipynb").returncode == 0


def test_notebook_diff_does_not_write(tmp_path, run_cli):
    p = tmp_path / "nb.ipynb"
    original = _nb(indent=1) + "\n"
    p.write_text(original)
    proc = run_cli("check", "--diff", "nb.ipynb")
    assert proc.returncode == 1 and "jax.tree.map" in proc.stdout
    assert p.read_text() == original


def _code(*sources):
    return {
        "cells": [
            {"cell_type": "code", "metadata": {}, "outputs": [], "source": src} for src in sources
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


REUSE = _code(
    ["import jax\n"],
    ["x = 1\n", "y = 2\n"],
    [
        "def f(key):\n",
        "    a = jax.random.normal(key, (3,))\n",
        "    b = jax.random.normal(key, (3,))\n",
        "    return a, b\n",
    ],
)


def test_messages_cite_cell_lines_in_every_format(tmp_path, run_cli):
    (tmp_path / "nb.ipynb").write_text(json.dumps(REUSE, indent=1))
    # JAX201 is in preview since the v15 check set
    [d] = json.loads(run_cli("check", "--format", "json", "--preview", "nb.ipynb").stdout)
    assert (d["code"], d["cell"], d["location"]["row"]) == ("JAX201", 3, 3)
    assert "on line 2" in d["message"], d["message"]
    text = run_cli("check", "--preview", "nb.ipynb").stdout
    assert text.startswith("nb.ipynb:cell 3:3:"), text
    assert "   3 |     b = jax.random.normal(key, (3,))" in text  # the cell's line as snippet
    # github and SARIF point at the .ipynb line holding the source (issue 27 item 5); the
    # message and properties keep the cell and its row
    raw = (tmp_path / "nb.ipynb").read_text().split("\n")
    file_line = next(n for n, ln in enumerate(raw, 1) if "b = jax.random.normal" in ln)
    gh = run_cli("check", "--format", "github", "--preview", "nb.ipynb").stdout
    assert f",line={file_line}," in gh and "cell 3, line 3" in gh, gh
    sarif = json.loads(run_cli("check", "--format", "sarif", "--preview", "nb.ipynb").stdout)
    [result] = sarif["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == file_line
    assert result["properties"]["cell"] == 3 and result["properties"]["cellLine"] == 3


def test_cited_line_in_another_cell_names_the_cell():
    from jaxlint.files.notebook import _cell_lines, _cells

    cells = _cells(REUSE)
    # joined module: cell 1 is line 1 (+ boundary), cell 2 lines 3-4, cell 3 lines 6-9
    assert _cell_lines("jitted on line 4, used on line 7", cells, cells[2]) == (
        "jitted on line 2 (cell 2), used on line 2"
    )
    assert _cell_lines("lines 6 and 7", cells, cells[2]) == "lines 1 and 2"


def test_cell_magics_follow_ruff(tmp_path, run_cli):
    bad = "jax.tree_map(abs, [1])\n"
    nb = _code(
        ["import jax\n"],
        ["%%time\n", bad],  # transparent: linted
        ["%%capture out\n", bad],  # transparent
        ["# comment\n", "%%bash\n", "ls\n"],  # not Python: skipped
        ["%%writefile x.py\n", bad],  # skipped
        ["pip install jax\n"],  # automagic: skipped (not a syntax error)
        ["%timeit " + bad, bad],  # a timed statement (linted), and the next line
        ["%matplotlib inline\n", bad],  # line magic masked, next line linted
    )
    (tmp_path / "nb.ipynb").write_text(json.dumps(nb))
    found = json.loads(run_cli("check", "--format", "json", "nb.ipynb").stdout)
    assert [(d["code"], d["cell"], d["location"]["row"]) for d in found] == [
        ("JAX801", 2, 2),
        ("JAX801", 3, 2),
        ("JAX801", 7, 1),
        ("JAX801", 7, 2),
        ("JAX801", 8, 2),
    ]


def test_stdin_notebook_is_linted_and_fixed_as_a_notebook(tmp_path, run_cli):
    """B4: `--stdin-filename x.ipynb` means a notebook, as in ruff."""
    original = _nb(indent=1) + "\n"
    # --preview: the JAX501 fix below is in preview after the v13 check set
    (tmp_path / "nb.ipynb").write_text(original)
    by_path = json.loads(run_cli("check", "--preview", "--format", "json", "nb.ipynb").stdout)
    proc = run_cli(
        "check",
        "--preview",
        "--format",
        "json",
        "--stdin-filename",
        "nb.ipynb",
        "-",
        input=original,
    )
    assert proc.returncode == 1
    assert json.loads(proc.stdout) == by_path and len(by_path) == 3
    fixed = run_cli("check", "--preview", "--fix", "--stdin-filename", "nb.ipynb", input=original)
    nb = json.loads(fixed.stdout)  # the fixed notebook JSON, on stdout
    assert nb["cells"][3]["source"][4] == "x = x.at[0].set(1.0)\n"
    run_cli("check", "--preview", "--fix", "nb.ipynb")
    assert fixed.stdout == (tmp_path / "nb.ipynb").read_text()  # same as fixing the file
    diff = run_cli("check", "--preview", "--diff", "--stdin-filename", "nb.ipynb", input=original)
    assert diff.returncode == 1 and '+    "x = x.at[0].set(1.0)\\n",' in diff.stdout
    bad = run_cli("check", "--stdin-filename", "nb.ipynb", input="{not json")
    assert bad.returncode == 1 and "JAX000" in bad.stdout


TIMED_THEN_REUSE = _code(
    [
        "import time\n",
        "import jax\n",
        "f = jax.jit(lambda x: x * 2)\n",
        "f(1.0).block_until_ready()\n",
        "t0 = time.perf_counter()\n",
        "y = f(1.0)\n",
        "print(time.perf_counter() - t0)\n",
        "@jax.jit\n",
        "def g(x):\n",
        "    if x > 0:\n",
        "        return x\n",
        "    return -x\n",
    ],
    [
        "key = jax.random.key(0)\n",
        "a = jax.random.normal(key, (3,))\n",
        "b = jax.random.normal(key, (3,))\n",
    ],
)


def _rows(proc) -> list[tuple]:  # noqa: ANN001
    assert proc.returncode in (0, 1), proc.stderr
    return [
        (d["code"], d["cell"], d["location"]["row"], d["message"].split(" (`normal` on ")[-1][:8])
        for d in json.loads(proc.stdout)
    ]


def test_rows_after_fix_are_the_fixed_notebooks(tmp_path, run_cli):
    """JAX601's fix inserts a line in cell 1: the findings left after `--fix` are reported at
    the fixed notebook's rows (JAX110 moves down one line in cell 1; cell 2 keeps its rows),
    in the fix run's output and in the cache the next `check` reads."""
    (tmp_path / "nb.ipynb").write_text(json.dumps(TIMED_THEN_REUSE, indent=1))
    fix = run_cli("check", "--preview", "--fix", "--format", "json", "nb.ipynb")
    fixed = json.loads((tmp_path / "nb.ipynb").read_text())["cells"][0]["source"]
    assert fixed[6:8] == ["jax.block_until_ready(y)\n", "print(time.perf_counter() - t0)\n"]
    want = [("JAX110", 1, 11, "Python `"), ("JAX201", 2, 3, "line 2, ")]
    assert _rows(fix) == want
    assert (
        _rows(run_cli("check", "--preview", "--format", "json", "nb.ipynb")) == want
    )  # from the cache
    assert (
        _rows(run_cli("check", "--preview", "--no-cache", "--format", "json", "nb.ipynb")) == want
    )


def _json(proc) -> list[tuple]:  # noqa: ANN001
    assert proc.returncode in (0, 1), proc.stderr
    found = json.loads(proc.stdout)
    return [(d["code"], d["cell"], d["location"]["row"], d["location"]["column"]) for d in found]


TIMED = _code(
    [
        "import jax\n",
        "f = jax.jit(lambda x: x * 2)\n",
        "x = jax.numpy.ones(3)\n",
        "f(x).block_until_ready()  # warm: no JAX602\n",
    ],
    ["%%time\n", "y = f(x)\n"],  # JAX601: %%time reads the clock before y is ready
    ["%time y = f(x)  # '#' in a comment\n"],  # JAX601, at the call's column in the cell
    ["%%time\n", "y = f(x)\n", "y.block_until_ready()\n"],  # honest
    ["%time y = f(x).block_until_ready()\n"],  # honest
    ["%time for i in range(2): f(x)\n"],  # not one simple statement: masked as before
    ["%timeit -n 10 f(x).block_until_ready()\n"],  # a timed statement too: honest
)


def test_time_magics_are_timed_regions(tmp_path, run_cli):
    """`%%time` times its cell and `%time stmt` its statement: an unblocked jitted call in
    either is JAX601, with the magic named as the evidence. The `%%time` fix blocks at the
    end of the cell; the `%time` finding has no fix (there is no line to insert one)."""
    (tmp_path / "nb.ipynb").write_text(json.dumps(TIMED, indent=1))
    # JAX601 is in preview again (docs/precision.md, v32; default v30-v31, preview v25-v29,
    # default v21-v24, preview v11-v20)
    proc = run_cli("check", "--no-cache", "--format", "json", "nb.ipynb")
    assert _json(proc) == []
    proc = run_cli("check", "--preview", "--format", "json", "nb.ipynb")
    assert _json(proc) == [("JAX601", 2, 2, 5), ("JAX601", 3, 1, 11)]
    cell_time, line_time = json.loads(proc.stdout)
    assert cell_time["message"].endswith("(the timing is this cell's `%%time`)")
    assert line_time["message"].endswith("(the timing is this line's `%time`)")
    assert cell_time["fix"] is not None and line_time["fix"] is None
    text = run_cli("check", "--preview", "nb.ipynb").stdout
    assert "   1 | %time y = f(x)  # '#' in a comment\n     |           ^^^^\n" in text
    fix = run_cli("check", "--preview", "--fix", "--format", "json", "nb.ipynb")
    assert _json(fix) == [("JAX601", 3, 1, 11)]
    nb = json.loads((tmp_path / "nb.ipynb").read_text())
    assert nb["cells"][1]["source"] == ["%%time\n", "y = f(x)\n", "jax.block_until_ready(y)\n"]
    assert [c["source"] for c in nb["cells"][2:]] == [c["source"] for c in TIMED["cells"][2:]]
    assert _json(
        run_cli("check", "--preview", "--no-cache", "--format", "json", "nb.ipynb")
    ) == _json(fix)


def test_fix_import_above_a_masked_magic_keeps_both(tmp_path, run_cli):
    """A fix that needs `import jax` inserts it at the top of the first cell, above a masked
    `%matplotlib inline`: both lines survive (the magic was restored over the import)."""
    nb = _code(
        [
            "%matplotlib inline\n",
            "import time\n",
            "from jax import jit\n",
            "f = jit(lambda x: x * 2)\n",
            "f(1.0).block_until_ready()\n",
        ],
        ["t0 = time.perf_counter()\n", "y = f(1.0)\n", "print(time.perf_counter() - t0)\n"],
    )
    (tmp_path / "nb.ipynb").write_text(json.dumps(nb, indent=1))
    proc = run_cli("check", "--preview", "--fix", "nb.ipynb")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    fixed = json.loads((tmp_path / "nb.ipynb").read_text())["cells"]
    assert fixed[0]["source"][:3] == ["import jax\n", "%matplotlib inline\n", "import time\n"]
    assert fixed[1]["source"][2] == "jax.block_until_ready(y)\n"


def test_add_noqa_marks_cell_lines_and_time_lines(tmp_path, run_cli):
    """`--add-noqa` on a notebook: `# noqa: CODE` at the end of each finding's cell line
    (a `%time stmt` line included: the comment follows the statement), outputs and the other
    lines untouched; then the notebook is clean and a second run adds nothing."""
    nb = _code(
        ["%matplotlib inline\n", "import jax\n", "f = jax.jit(lambda x: x * 2)\n"],
        ["f(1.0).block_until_ready()\n", "y = jax.tree_map(abs, [1])\n"],
        ["%time y = f(2.0)\n"],
    )
    (tmp_path / "nb.ipynb").write_text(json.dumps(nb, indent=1))
    proc = run_cli("check", "--preview", "--add-noqa", "nb.ipynb")
    assert proc.returncode == 0 and "Added 2 noqa directives." in proc.stderr, proc.stderr
    cells = json.loads((tmp_path / "nb.ipynb").read_text())["cells"]
    assert cells[0]["source"] == nb["cells"][0]["source"]
    assert cells[1]["source"][1] == "y = jax.tree_map(abs, [1])  # noqa: JAX801\n"
    assert cells[2]["source"] == ["%time y = f(2.0)  # noqa: JAX601\n"]
    assert run_cli("check", "--preview", "--no-cache", "nb.ipynb").returncode == 0
    again = run_cli("check", "--preview", "--add-noqa", "nb.ipynb")
    assert "Added 0 noqa directives." in again.stderr


MODULE_CELL = """import flax.linen as nn
import jax
import jax.numpy as jnp


class Detector(nn.Module):
    @nn.compact
    def __call__(self, vol):
        if vol > 0.5:
            return 1.0
        return 0.0


params = Detector().init(jax.random.PRNGKey(0), jnp.ones(()))
"""


@pytest.mark.parametrize("jitted", [False, True])
def test_modules_of_a_notebook_that_names_no_transform_are_not_traced(tmp_path, run_cli, jitted):
    """Nothing imports a notebook: the Modules it defines run traced only if its own code
    names a transform (engine._notebook_seeds; v30 wax-ml rows, the .py form of the same
    demos). The twin applies one under `jax.jit` and keeps the finding."""
    source = MODULE_CELL + ("step = jax.jit(Detector().apply)\n" if jitted else "")
    nb = {
        "cells": [{"cell_type": "code", "metadata": {}, "execution_count": None,
                   "outputs": [], "source": source.splitlines(True)}],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5,
    }  # fmt: skip
    (tmp_path / "demo.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    proc = run_cli(
        "check", "--preview", "--no-cache", "--select", "JAX110", "demo.ipynb", cwd=tmp_path
    )
    assert ("JAX110" in proc.stdout) is jitted, proc.stdout + proc.stderr
