"""Join the untuned readings of a corpus's CHECK half (check_review_*.json: one per reader)
into check_review.json and write check_tables.md: per family, per rule and per rule and
confidence, default selection and the findings only `--preview` reports, TP/(TP+FP) with 95%
Wilson intervals (DEBATABLE left out). Parameterised form of precision_v6/tools_tables.py.

    python benchmarks/precision_tools/tables.py benchmarks/precision_v7 "jaxlint at <commit>"
"""

from __future__ import annotations

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from wilson import table  # noqa: E402


def render(rows: list[dict], title: str) -> list[str]:
    """One section: the rows grouped by family, by rule and by rule and confidence."""
    out = [f"### {title} ({len(rows)} rows)", ""]
    for by in ("family", "rule", "confidence"):
        out += [
            f"By {by}:",
            "",
            "| group | TP | FP | DEBATABLE | precision [95% Wilson] |",
            "|---|---:|---:|---:|---|",
        ]
        out += [
            f"| {g} | {tp} | {fp} | {deb} | {cell} |" for g, tp, fp, deb, cell in table(rows, by)
        ]
        out.append("")
    return out


def main(argv: list[str]) -> int:
    here = pathlib.Path(argv[1])
    note = argv[2] if len(argv) > 2 else ""
    rows: list[dict] = []
    parts = sorted(here.glob("check_review_*.json"))
    for path in parts:
        rows += json.loads(path.read_text(encoding="utf-8"))
    (here / "check_review.json").write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    default = [r for r in rows if r["selection"] == "default"]
    preview = [r for r in rows if r["selection"] == "preview"]
    lines = [
        f"# Precision corpus {here.name.removeprefix('precision_')}, held-out check half: tables",
        "",
        "Rendered by `benchmarks/precision_tools/tables.py` from check_review.json ("
        + " + ".join(p.name for p in parts)
        + f"). {note} Precision is TP/(TP+FP).",
        "",
        *render(default, "Default selection"),
        *render(preview, "Reported only with --preview"),
        *render(rows, "Both"),
    ]
    (here / "check_tables.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
