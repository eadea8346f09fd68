"""Join the two readings of the v6 CHECK half (check_review_A.json, check_review_B.json: two
untuned readers, one per set of repositories) into check_review.json and write
check_tables.md: per family, per rule and per rule and confidence, default selection and the
findings only `--preview` reports, TP/(TP+FP) with 95% Wilson intervals (DEBATABLE left out).

    python benchmarks/precision_v6/tools_tables.py
"""

from __future__ import annotations

import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from wilson import table  # noqa: E402


def render(rows: list[dict], title: str) -> list[str]:
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


def main() -> int:
    rows: list[dict] = []
    for part in ("A", "B"):
        path = HERE / f"check_review_{part}.json"
        if path.exists():
            rows += json.loads(path.read_text(encoding="utf-8"))
    (HERE / "check_review.json").write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    default = [r for r in rows if r["selection"] == "default"]
    preview = [r for r in rows if r["selection"] == "preview"]
    lines = [
        "# Precision corpus v6, held-out check half: tables",
        "",
        "Rendered by `tools_tables.py` from check_review.json (check_review_A.json +",
        "check_review_B.json). jaxlint at 33c87b0 (the check-half findings are identical at",
        "afea05c, re-linted and compared without reading). Precision is TP/(TP+FP).",
        "",
        *render(default, "Default selection"),
        *render(preview, "Reported only with --preview"),
        *render(rows, "Both"),
    ]
    (HERE / "check_tables.md").write_text("\n".join(lines), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
