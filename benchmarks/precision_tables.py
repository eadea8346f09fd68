"""Render the tables of docs/precision.md ("Real user code") from the per-finding verdicts.

Why: the verdicts live in `benchmarks/precision_review.json` (one object per reviewed finding:
repo, path, line, cell, code, verdict, reason, reviewed = "full" or "sample"). When a merge
changes what jaxlint reports on the corpus, add or delete those objects and re-render, instead
of recounting the family table by hand.

    python benchmarks/precision_tables.py --findings default.json --lines 150215

`--findings` is `jaxlint check --format json` output over the corpus (default selection), used
for the per-family finding counts; `--all-findings` (optional, `--select ALL`) adds the opt-in
counts. Verdicts that no longer match a finding are reported on stderr.
"""

from __future__ import annotations

import argparse
import collections
import json
import pathlib
import sys

FAMILIES = [
    ("1", "JAX1xx tracing"),
    ("2", "JAX2xx PRNG"),
    ("3", "JAX3xx pmap/sharding"),
    ("4", "JAX4xx compile/transfers"),
    ("5", "JAX5xx mutation/side effects"),
    ("6", "JAX6xx benchmarking"),
    ("7", "JAX7xx dtypes"),
    ("8", "JAX8xx deprecations"),
]
SAMPLED = "38"  # families reviewed by sample, not finding by finding


def _key(repo: str, path: str, line: int, cell: int | None, code: str) -> tuple:
    return (repo, path, line, cell, code)


def _finding_key(f: dict, root: str) -> tuple:
    rel = (
        f["filename"][len(root) :].lstrip("/") if f["filename"].startswith(root) else f["filename"]
    )
    repo, _, path = rel.partition("/")
    return _key(repo, path, f["location"]["row"], f.get("cell"), f["code"])


def _loc(x: dict) -> str:
    return f"{x['path']}:{x['line']}" + (f" (cell {x['cell']})" if x.get("cell") else "")


def render(review: list[dict], findings: list[dict], lines: int, all_findings: list[dict]) -> str:
    """Return the markdown tables (family summary, every reviewed finding, the 3xx/8xx sample)."""
    out: list[str] = []
    counts = collections.Counter(f["code"][3] for f in findings)
    out.append(
        "| family | findings | per 100k lines | TP / FP / DEBATABLE | precision TP/(TP+FP) |"
    )
    out.append("|---|---:|---:|---|---:|")
    for fam, name in FAMILIES:
        rows = [x for x in review if x["code"][3] == fam]
        n = counts[fam]
        c = collections.Counter(x["verdict"] for x in rows)
        tp, fp, db = c["TP"], c["FP"], c["DEBATABLE"]
        prec = f"{100 * tp / (tp + fp):.0f}% ({tp}/{tp + fp})" if tp + fp else "–"
        if fam in SAMPLED:
            out.append(
                f"| {name} | {n} | {n / lines * 1e5:.1f} | sample of {len(rows)}: "
                f"{tp} / {fp} / {db} | sample {prec} |"
            )
        else:
            bold = "**" if n >= 5 else ""
            out.append(
                f"| {name} | {n} | {n / lines * 1e5:.1f} | {tp} / {fp} / {db} | {bold}{prec}{bold} |"
            )
    full = [x for x in review if x["code"][3] not in SAMPLED]
    c = collections.Counter(x["verdict"] for x in full)
    tp, fp = c["TP"], c["FP"]
    out.append(
        f"| **reviewed families (1, 2, 4-7)** | **{len(full)}** | **{len(full) / lines * 1e5:.1f}**"
        f" | {tp} / {fp} / {c['DEBATABLE']} | **{100 * tp / max(tp + fp, 1):.0f}%** ({tp}/{tp + fp}) |"
    )
    out.append(
        f"| **all, default selection** | **{len(findings)}** | **{len(findings) / lines * 1e5:.1f}** | | |"
    )
    out.append("")
    per_rule = collections.Counter(f["code"] for f in findings)
    out.append(
        "Per rule (default selection): "
        + ", ".join(f"{k} {v}" for k, v in sorted(per_rule.items()))
    )
    if all_findings:
        per_all = collections.Counter(f["code"] for f in all_findings)
        extra = ", ".join(
            f"{k} {per_all[k] - per_rule[k]}" for k in sorted(per_all) if per_all[k] != per_rule[k]
        )
        out.append("")
        out.append(f"`--select ALL`: {len(all_findings)} findings; the opt-in rules add {extra}.")
    out.append("")
    out.append("| repo | file:line | code | verdict | reason |")
    out.append("|---|---|---|---|---|")
    out.extend(
        f"| {x['repo']} | `{_loc(x)}` | {x['code']} | {x['verdict']} | {x['reason']} |"
        for x in full
    )
    out.append("")
    out.append("| repo | file:line | code | verdict | check on JAX 0.10.2 |")
    out.append("|---|---|---|---|---|")
    out.extend(
        f"| {x['repo']} | `{_loc(x)}` | {x['code']} | {x['verdict']} | {x['reason']} |"
        for x in review
        if x["code"][3] in SAMPLED
    )
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = pathlib.Path(__file__).parent
    ap.add_argument("--review", default=str(here / "precision_review.json"))
    ap.add_argument("--findings", required=True, help="jaxlint JSON output, default selection")
    ap.add_argument("--all-findings", help="jaxlint JSON output with --select ALL")
    ap.add_argument("--lines", type=int, required=True, help="lines of code in the corpus")
    ap.add_argument("--root", default="/work/corpus", help="corpus folder (one folder per repo)")
    args = ap.parse_args(argv)
    review = json.loads(pathlib.Path(args.review).read_text(encoding="utf-8"))
    findings = json.loads(pathlib.Path(args.findings).read_text(encoding="utf-8"))
    all_findings = (
        json.loads(pathlib.Path(args.all_findings).read_text(encoding="utf-8"))
        if args.all_findings
        else []
    )
    have = collections.Counter(_finding_key(f, args.root) for f in findings)
    want = collections.Counter(
        _key(x["repo"], x["path"], x["line"], x.get("cell"), x["code"]) for x in review
    )
    for k in sorted(want - have, key=str):
        print(f"stale verdict (no such finding now): {k}", file=sys.stderr)
    reviewed_fams = {fam for fam, _ in FAMILIES if fam not in SAMPLED}
    for k in sorted(have - want, key=str):
        if k[4][3] in reviewed_fams:
            print(f"finding without a verdict: {k}", file=sys.stderr)
    sys.stdout.write(render(review, findings, args.lines, all_findings))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
