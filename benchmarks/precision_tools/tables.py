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
from wilson import table, wilson  # noqa: E402

THRESHOLD = 0.90  # the standing rule (issue 23): a default part under it leaves the selection
MIN_CAPPED = 10  # a preview part comes back at THRESHOLD on at least this many decided rows,
PER_REPO_CAP = 4  # of which at most this many of one repository count toward MIN_CAPPED


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


def standing_rule(rows: list[dict]) -> list[str]:
    """The standing rule applied mechanically, per rule and per rule and confidence level:
    a default part under 90% leaves the default selection; a preview part at 90% or more on
    at least 10 decided rows (TP or FP), at most 4 of them from one repository, comes back.
    DEBATABLE rows count in neither."""
    out = [
        "### The standing rule, applied",
        "",
        "| selection | part | TP | FP | DEBATABLE | decided rows, capped (4 per repository) "
        "| precision [95% Wilson] | outcome |",
        "|---|---|---:|---:|---:|---:|---|---|",
    ]
    groups: dict[tuple[str, str], list[dict]] = {}
    for r in rows:
        conf = r.get("confidence") or "-"
        groups.setdefault((r["selection"], r["code"]), []).append(r)
        groups.setdefault((r["selection"], f"{r['code']} {conf}"), []).append(r)
    for (selection, part), rs in sorted(groups.items()):
        tp = sum(r["verdict"] == "TP" for r in rs)
        fp = sum(r["verdict"] == "FP" for r in rs)
        deb = len(rs) - tp - fp
        per_repo: dict[str, int] = {}
        for r in rs:
            if r["verdict"] in ("TP", "FP"):
                per_repo[r["repo"]] = per_repo.get(r["repo"], 0) + 1
        capped = sum(min(PER_REPO_CAP, n) for n in per_repo.values())
        n = tp + fp
        precision = tp / n if n else None
        lo, hi = wilson(tp, n)
        cell = f"{precision:.0%} [{lo:.0%}-{hi:.0%}]" if n else "-"
        if selection == "default":
            outcome = "leaves the default selection" if n and precision < THRESHOLD else "stays"
        elif n and precision >= THRESHOLD and capped >= MIN_CAPPED:
            outcome = "comes back to the default selection"
        else:
            outcome = "stays in preview"
        out.append(
            f"| {selection} | {part} | {tp} | {fp} | {deb} | {capped} | {cell} | {outcome} |"
        )
    return [*out, ""]


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
        *standing_rule(rows),
    ]
    (here / "check_tables.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
