"""The per-finding verdicts behind docs/precision.md and the script that renders its tables.

Why: the lead updates `benchmarks/precision_review.json` when merges change findings on the
real-code corpus, and re-renders the tables; a malformed entry or a broken renderer would
silently corrupt the published precision figures. The corpus itself is not in the repository,
so the renderer is checked against findings synthesised from the verdicts.
"""

from __future__ import annotations

import importlib.util
import json
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
REVIEW = ROOT / "benchmarks" / "precision_review.json"
HELDOUT = ROOT / "benchmarks" / "precision_review_heldout.json"
REVIEWS = pytest.mark.parametrize("path", [REVIEW, HELDOUT], ids=["corpus", "heldout"])


def _load_tables_module():
    spec = importlib.util.spec_from_file_location(
        "precision_tables", ROOT / "benchmarks" / "precision_tables.py"
    )
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


@REVIEWS
def test_review_entries_are_well_formed(path):
    review = json.loads(path.read_text(encoding="utf-8"))
    assert review
    for entry in review:
        assert {"repo", "path", "line", "code", "verdict", "reason"} <= set(entry)
        assert entry["verdict"] in {"TP", "FP", "DEBATABLE"}
        assert entry["code"].startswith("JAX") and len(entry["code"]) == 6
        assert isinstance(entry["line"], int) and entry["line"] > 0
        assert entry["reason"].strip() and "|" not in entry["reason"]  # a table cell
    keys = [(e["repo"], e["path"], e["line"], e.get("cell"), e["code"]) for e in review]
    assert len(keys) == len(set(keys)), "a finding has two verdicts"


@REVIEWS
def test_every_fp_names_a_reproduction_that_exists(path):
    review = json.loads(path.read_text(encoding="utf-8"))
    repros = {p.stem[:4] for p in (ROOT / "tests" / "regressions" / "realworld").glob("fp*.py")}
    for entry in review:
        if entry["verdict"] == "FP":
            named = [
                w.strip("()") for w in entry["reason"].split() if w.strip("()").startswith("fp")
            ]
            assert named, f"FP without a repro: {entry}"
            assert all(n[:4] in repros for n in named), entry


def test_render_counts_families_and_precision():
    tables = _load_tables_module()
    review = json.loads(REVIEW.read_text(encoding="utf-8"))
    findings = [
        {
            "code": e["code"],
            "filename": f"/corpus/{e['repo']}/{e['path']}",
            "location": {"row": e["line"]},
            "cell": e.get("cell"),
        }
        for e in review
    ]
    text = tables.render(review, findings, 100_000, [])
    prng = [e for e in review if e["code"].startswith("JAX2")]
    tp = sum(e["verdict"] == "TP" for e in prng)
    fp = sum(e["verdict"] == "FP" for e in prng)
    assert f"| JAX2xx PRNG | {len(prng)} | {len(prng):.1f} |" in text
    assert f"{100 * tp / (tp + fp):.0f}% ({tp}/{tp + fp})" in text
    assert text.count("\n| ") >= len(review)


def test_render_fixed_rows_give_a_before_column():
    """Held-out review: a fixed FP counts before the fixes only; `findings` weighs a row."""
    tables = _load_tables_module()
    review = json.loads(HELDOUT.read_text(encoding="utf-8"))
    now = [e for e in review if not e.get("fixed")]
    findings = [
        {
            "code": e["code"],
            "filename": f"/corpus/{e['repo']}/{e['path']}",
            "location": {"row": e["line"]},
            "cell": e.get("cell"),
        }
        for e in now
        for _ in range(e.get("findings", 1))
    ]
    text = tables.render(review, findings, 100_000, [])
    assert "precision before the fixes" in text
    fam4 = [e for e in review if e["code"].startswith("JAX4")]
    line = next(row for row in text.splitlines() if row.startswith("| JAX4xx"))
    tp = sum(e.get("findings", 1) for e in fam4 if e["verdict"] == "TP")
    fp_now = sum(e.get("findings", 1) for e in fam4 if e["verdict"] == "FP" and not e.get("fixed"))
    fp_before = sum(e.get("findings", 1) for e in fam4 if e["verdict"] == "FP")
    assert f"({tp}/{tp + fp_now})" in line and f"({tp}/{tp + fp_before})" in line
