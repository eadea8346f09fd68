"""Per-family and per-rule precision with 95% Wilson intervals, from per-finding verdicts.

Why: a precision figure on a few dozen findings is only worth its interval; the rule of the
project (docs/precision.md) is that a rule, or one confidence level of it, stays in the default
selection only while its precision on a corpus nobody tuned on is at least 90%. This prints
the table that decides it.

    python benchmarks/wilson.py benchmarks/precision_v3/check_review.json [--by rule|family]

The review file is a list of objects with at least "code" and "verdict" (TP, FP or DEBATABLE),
optionally "confidence" ("high"/"medium") and "findings" (how many findings one verdict
covers). DEBATABLE findings are left out of precision (counted apart), as in the earlier
reviews.
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import sys

FAMILY_NAMES = {
    "1": "JAX1xx tracing",
    "2": "JAX2xx PRNG",
    "3": "JAX3xx pmap/sharding",
    "4": "JAX4xx compile",
    "5": "JAX5xx mutation",
    "6": "JAX6xx benchmarking",
    "7": "JAX7xx dtypes",
    "8": "JAX8xx deprecations",
}


def wilson(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (good at small n and near 0 or 1)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def table(rows: list[dict], by: str) -> list[tuple[str, int, int, int, str]]:
    """(group, TP, FP, DEBATABLE, "p% [lo-hi]") per group, sorted by group."""
    counts: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for r in rows:
        code = r["code"]
        if by == "family":
            group = FAMILY_NAMES.get(code[3], code[:4])
        elif by == "confidence":
            group = f"{code} {r.get('confidence', 'high')}"
        else:
            group = code
        counts[group][r["verdict"].upper()] += int(r.get("findings", 1))
    out = []
    for group in sorted(counts):
        c = counts[group]
        tp, fp, deb = c["TP"], c["FP"], c["DEBATABLE"]
        n = tp + fp
        if n:
            lo, hi = wilson(tp, n)
            cell = f"{100 * tp / n:.0f}% [{100 * lo:.0f}-{100 * hi:.0f}]"
        else:
            cell = "-"
        out.append((group, tp, fp, deb, cell))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("review")
    parser.add_argument("--by", choices=("family", "rule", "confidence"), default="family")
    args = parser.parse_args(argv)
    with open(args.review, encoding="utf-8") as fh:
        rows = json.load(fh)
    if isinstance(rows, dict):
        rows = rows.get("verdicts", [])
    sys.stdout.write(
        "| group | TP | FP | DEBATABLE | precision [95% Wilson] |\n|---|---:|---:|---:|---|\n"
    )
    for group, tp, fp, deb, cell in table(rows, args.by):
        sys.stdout.write(f"| {group} | {tp} | {fp} | {deb} | {cell} |\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
