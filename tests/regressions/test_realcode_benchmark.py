"""benchmarks/realcode.py on a fake site-packages: files found through RECORD (never
imported), figures per rule, per 100k lines, library vs test code, and the JSON file."""

from __future__ import annotations

import importlib.util
import json
import pathlib
import textwrap

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _load():
    spec = importlib.util.spec_from_file_location("realcode", ROOT / "benchmarks" / "realcode.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def _install(site: pathlib.Path, files: dict[str, str]) -> None:
    info = site / "toylib-1.0.dist-info"
    info.mkdir(parents=True)
    rows = []
    for rel, text in files.items():
        path = site / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
        rows.append(f"{rel},sha256=x,1")
    rows.append("toylib-1.0.dist-info/RECORD,,")
    (info / "RECORD").write_text("\n".join(rows) + "\n", encoding="utf-8")


def test_realcode_counts_findings_per_rule_and_subset(tmp_path, capsys):
    realcode = _load()
    site = tmp_path / "site"
    _install(
        site,
        {
            "toylib/__init__.py": "raise SystemExit('never imported')\n",
            # a default rule in library code: JAX130 (JAX101 and JAX201 are in preview after
            # the v17 and v18 check sets)
            "toylib/core.py": """
                import jax

                @jax.jit
                def f(x):
                    return x[x > 0]
                """,
            "toylib/core_test.py": """
                import jax

                @jax.jit
                def g(x):
                    return x[x < 0]
                """,
        },
    )
    out = tmp_path / "out.json"
    assert (
        realcode.main(["--site-packages", str(site), "--packages", "toylib", "--json", str(out)])
        == 0
    )
    result = json.loads(out.read_text())
    assert result["files"] == 3
    assert result["per_rule"] == {"JAX130": 2}
    assert result["subsets"]["library"]["per_rule"] == {"JAX130": 1}
    assert result["subsets"]["tests"]["per_rule"] == {"JAX130": 1}
    lines = result["lines"]
    assert result["per_100k_lines"]["JAX130"] == round(2 * 100_000 / lines, 2)
    assert result["subsets"]["all"]["target_findings"] == 2
    assert "JAX130" in capsys.readouterr().out


def test_realcode_reports_a_missing_distribution(tmp_path):
    realcode = _load()
    site = tmp_path / "empty"
    site.mkdir()
    assert (
        realcode.main(
            ["--site-packages", str(site), "--packages", "nope", "--json", str(tmp_path / "o.json")]
        )
        == 2
    )
