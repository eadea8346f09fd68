"""Join every reviewed JAX201 row (v4 check half, v4 tuning half, v5) to lint runs made with
`--select JAX2 --preview --format json` (one JSON file per repository, named OWNER+NAME.json,
repositories re-brought with the fetch tool and benchmarks/precision_v3/export.py), and
count the rows by (confidence, verdict) per run; "gone" is a row no longer reported.

    python benchmarks/precision_v5/tools/jax201_proven_draws.py BEFORE_DIR AFTER_DIR [--json OUT]

Used for issue 24 (JAX201 consumptions proven to draw, analysis/flow/key_draws.py): the
reviewed rows are tuning data for that change, so the counts describe it on the code it was
built against; they are not a held-out measurement.
"""

from __future__ import annotations

import argparse
import collections
import json
import pathlib

BENCH = pathlib.Path(__file__).resolve().parents[2]
REVIEWS = {
    "v4-check": BENCH / "precision_v4" / "check_review.json",
    "v4-tuning": BENCH / "precision_v4" / "tuning_review.json",
    "v5": BENCH / "precision_v5" / "review.json",
}


def load(run: pathlib.Path) -> dict[tuple, set[str]]:
    out: dict[tuple, set[str]] = {}
    for f in run.glob("*.json"):
        text = f.read_text()
        for x in json.loads(text) if text.strip() else []:
            if x["code"] == "JAX201":
                cell = x.get("cell")
                key = (f.stem, x["filename"], x["location"]["row"], cell)
                out.setdefault(key, set()).add(x["confidence"])
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+", type=pathlib.Path)
    ap.add_argument("--json", type=pathlib.Path)
    args = ap.parse_args()
    runs = [load(r) for r in args.runs]
    rows = []
    for tag, path in REVIEWS.items():
        for r in json.loads(path.read_text()):
            if r["code"] != "JAX201":
                continue
            cell = r.get("cell")
            key = (r["repo"], r["path"], r["line"], None if cell is None else int(cell))
            confs = [",".join(sorted(run.get(key, ()))) or "gone" for run in runs]
            rows.append({"set": tag, **{k: r[k] for k in ("repo", "path", "line", "verdict")},
                         "cell": cell, "confidence": confs})  # fmt: skip
    for i, run in enumerate(args.runs):
        counts = collections.Counter((row["confidence"][i], row["verdict"]) for row in rows)
        print(run)
        for conf in ("high", "medium", "gone"):
            tp, fp, deb = (counts[(conf, v)] for v in ("TP", "FP", "DEBATABLE"))
            print(f"  {conf:6} TP {tp:3}  FP {fp:3}  DEBATABLE {deb:3}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
