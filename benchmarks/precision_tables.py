"""Render the tables of docs/precision.md ("Real user code") from the per-finding verdicts.

Why: the verdicts live in `benchmarks/precision_review.json` (one object per reviewed finding:
repo, path, line, cell, code, verdict, reason, reviewed = "full" or "sample"). When a merge
changes what jaxlint reports on the corpus, add or delete those objects and re-render, instead
of recounting the family table by hand.

    python benchmarks/precision_tables.py --findings default.json --lines 150215

`--findings` is `jaxlint check --format json` output over the corpus (default selection), used
for the per-family finding counts; `--all-findings` (optional, `--select ALL`) adds the opt-in
counts. Verdicts that no longer match a finding are reported on stderr.

The held-out corpus (docs/precision.md, "Held-out corpus") keeps its verdicts in
`precision_review_heldout.json`:

    python benchmarks/precision_tables.py --review benchmarks/precision_review_heldout.json \
        --root /work/corpus2 --findings default.json --lines 144659

Two optional fields serve it: `"findings": n` when one verdict covers n findings at the same
line and code, and `"fixed": "<repro>"` for a false positive that a fix removed. Fixed rows are
left out of the current counts and give the family table a "before the fixes" column.
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


def _verdicts(rows: list[dict]) -> collections.Counter:
    c: collections.Counter = collections.Counter()
    for x in rows:
        c[x["verdict"]] += x.get("findings", 1)
    return c


def _precision(c: collections.Counter) -> str:
    tp, fp = c["TP"], c["FP"]
    return f"{100 * tp / (tp + fp):.0f}% ({tp}/{tp + fp})" if tp + fp else "–"


def render(review: list[dict], findings: list[dict], lines: int, all_findings: list[dict]) -> str:
    """Return the markdown tables (family summary, every reviewed finding, the 3xx/8xx sample)."""
    out: list[str] = []
    counts = collections.Counter(f["code"][3] for f in findings)
    fixed = [x for x in review if x.get("fixed")]
    review_now = [x for x in review if not x.get("fixed")]
    before = " | precision before the fixes" if fixed else ""
    out.append(
        f"| family | findings | per 100k lines | TP / FP / DEBATABLE | precision TP/(TP+FP){before} |"
    )
    out.append("|---|---:|---:|---|---:|" + ("---:|" if fixed else ""))
    for fam, name in FAMILIES:
        rows = [x for x in review_now if x["code"][3] == fam]
        n = counts[fam]
        c = _verdicts(rows)
        tp, fp, db = c["TP"], c["FP"], c["DEBATABLE"]
        prec = _precision(c)
        then = ""
        if fixed:
            gone = sum(x.get("findings", 1) for x in fixed if x["code"][3] == fam)
            old = _precision(_verdicts([x for x in review if x["code"][3] == fam]))
            then = f" {old}" + (f" ({n + gone} findings)" if gone else "") + " |"
        if fam in SAMPLED:
            out.append(
                f"| {name} | {n} | {n / lines * 1e5:.1f} | sample of {len(rows)}: "
                f"{tp} / {fp} / {db} | sample {prec} |{then}"
            )
        else:
            bold = "**" if n >= 5 else ""
            out.append(
                f"| {name} | {n} | {n / lines * 1e5:.1f} | {tp} / {fp} / {db} | {bold}{prec}{bold} |"
                f"{then}"
            )
    full = [x for x in review_now if x["code"][3] not in SAMPLED]
    c = _verdicts(full)
    tp, fp = c["TP"], c["FP"]
    nfull = sum(c.values())
    then = ""
    if fixed:
        then = (
            " " + _precision(_verdicts([x for x in review if x["code"][3] not in SAMPLED])) + " |"
        )
    out.append(
        f"| **reviewed families (1, 2, 4-7)** | **{nfull}** | **{nfull / lines * 1e5:.1f}**"
        f" | {tp} / {fp} / {c['DEBATABLE']} | **{100 * tp / max(tp + fp, 1):.0f}%** ({tp}/{tp + fp}) |"
        f"{then}"
    )
    out.append(
        f"| **all, default selection** | **{len(findings)}** | **{len(findings) / lines * 1e5:.1f}** | | |"
        + (" |" if fixed else "")
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
        f"| {x['repo']} | `{_loc(x)}` | {x['code']} | {x['verdict']} | {x['reason']}"
        + (f" (×{x['findings']})" if x.get("findings", 1) > 1 else "")
        + (" **fixed**" if x.get("fixed") else "")
        + " |"
        for x in [*full, *(x for x in fixed if x["code"][3] not in SAMPLED)]
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
    want: collections.Counter = collections.Counter()
    for x in review:
        if not x.get("fixed"):
            want[_key(x["repo"], x["path"], x["line"], x.get("cell"), x["code"])] += x.get(
                "findings", 1
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
