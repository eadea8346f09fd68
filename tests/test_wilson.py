"""The interval that decides whether a rule stays in the default selection (benchmarks/wilson.py)."""

from __future__ import annotations

import importlib.util
import json
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("wilson", ROOT / "benchmarks" / "wilson.py")
wilson = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(wilson)


@pytest.mark.parametrize(
    ("k", "n", "lo", "hi"),
    [
        (116, 126, 0.8601, 0.9563),
        (1, 82, 0.0022, 0.0659),
        (10, 10, 0.7225, 1.0),
        (0, 5, 0.0, 0.4345),
    ],
)
def test_known_intervals(k, n, lo, hi):
    got = wilson.wilson(k, n)
    assert got == pytest.approx((lo, hi), abs=1e-4)


def test_table_leaves_debatable_out_and_counts_grouped_findings(tmp_path, capsys):
    rows = [
        {"code": "JAX101", "verdict": "TP"},
        {"code": "JAX110", "verdict": "FP", "findings": 3},
        {"code": "JAX201", "verdict": "DEBATABLE"},
        {"code": "JAX201", "verdict": "tp"},
    ]
    (tmp_path / "r.json").write_text(json.dumps(rows))
    assert wilson.main([str(tmp_path / "r.json")]) == 0
    out = capsys.readouterr().out
    assert "| JAX1xx tracing | 1 | 3 | 0 | 25% [" in out
    assert "| JAX2xx PRNG | 1 | 0 | 1 | 100% [" in out
