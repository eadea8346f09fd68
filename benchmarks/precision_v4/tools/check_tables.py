"""Join the two readings of the v4 CHECK half into check_review.json and write check_tables.md.

Readers (untuned, 2026-12-02): check_review_jax201.json (every JAX201 row, the seeded sample
of 58 marked in_sample) and check_review_other.json (every other behavioural row, then a
second opinion on 20 not-sampled JAX201 rows, which are left out of the join: the first
reader's verdicts are the population's). JAX201 rows are also split the way the rule now
sets its confidence (`KeyFlow.through_helper`): "high" when both consumptions are draws of
`jax.random` the module makes itself, "medium" otherwise; the split is read from the
message (the callee names it quotes), which is what `through_helper` looks at.

    python benchmarks/precision_v4/tools/check_tables.py
"""

from __future__ import annotations

import json
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE.parent
sys.path.insert(0, str(OUT.parent))
from wilson import table  # noqa: E402

RANDOM = {
    "split", "normal", "uniform", "randint", "bernoulli", "fold_in", "categorical", "choice",
    "permutation", "gumbel", "truncated_normal", "bits", "exponential", "beta", "gamma",
    "dirichlet", "multivariate_normal", "poisson", "laplace", "logistic", "rademacher",
    "ball", "orthogonal", "cauchy", "lognormal",
}  # fmt: skip


def direct(name: str) -> bool:
    last = name.rsplit(".", 1)[-1]
    return last in RANDOM and (
        "." not in name or name.startswith(("jax.random.", "random.", "jr.", "jrandom."))
    )


def split_confidence(msg: str) -> str:
    m = re.search(r"consumed twice \(`([^`]*)`[^,]*, then `([^`]*)`", msg)
    names = [m.group(1), m.group(2)] if m else []
    if not m:
        m = re.search(r"consumed by `([^`]*)` in every iteration", msg)
        names = [m.group(1)] if m else []
    return "high" if names and all(direct(n) for n in names) else "medium"


def render(title: str, rows: list[dict], by: str) -> str:
    out = [f"**{title}** (by {by})", "", "| group | TP | FP | DEBATABLE | precision [95% Wilson] |"]
    out.append("|---|---:|---:|---:|---|")
    for group, tp, fp, deb, cell in table(rows, by):
        out.append(f"| {group} | {tp} | {fp} | {deb} | {cell} |")
    return "\n".join(out) + "\n"


def main() -> int:
    worklist = json.loads((OUT / "check_worklist.json").read_text())["rows"]
    msgs = {(r["repo"], r["path"], r["line"], r["code"], r["cell"]): r["msg"] for r in worklist}
    jax201 = json.loads((OUT / "check_review_jax201.json").read_text())
    other = [
        r
        for r in json.loads((OUT / "check_review_other.json").read_text())
        if r["code"] != "JAX201"
    ]
    rows = other + jax201
    for r in rows:
        if r["code"] == "JAX201":
            msg = msgs[(r["repo"], r["path"], r["line"], r["code"], r.get("cell"))]
            r["confidence_now"] = split_confidence(msg)
    (OUT / "check_review.json").write_text(json.dumps(rows, indent=1) + "\n")

    default = [r for r in rows if r["selection"] == "default"]
    sample = [r for r in default if r["code"] != "JAX201" or r.get("in_sample")]
    preview = [r for r in rows if r["selection"] == "preview"]
    strict = [dict(r, verdict="FP") if r["verdict"] == "DEBATABLE" else r for r in sample]
    split = [dict(r, confidence=r["confidence_now"]) for r in default if r["code"] == "JAX201"]
    split_sample = [r for r in split if r.get("in_sample")]
    parts = [
        "# Precision v4, check half: tables (rendered by tools/check_tables.py)\n",
        "Default selection as linted (jaxlint e07b14a, identical at dbd82f3); JAX201 is the "
        "seeded sample of 58 (of 154), every other behavioural finding is read. DEBATABLE "
        "is left out of precision unless said. The confidence split of JAX201 read from the "
        "messages was checked against a re-lint with the rule's own split (main d696c37, "
        "`--preview --select JAX201`): the same 154 findings, every confidence as read here.\n",
        render("Default selection", sample, "family"),
        render("Default selection", sample, "rule"),
        render("Default selection, DEBATABLE counted as FP", strict, "family"),
        render("JAX201, all 154 rows read (population)", [r for r in default if r["code"] == "JAX201"], "rule"),
        render("JAX201 sample by the confidence the rule now gives", split_sample, "confidence"),
        render("JAX201 all rows by the confidence the rule now gives", split, "confidence"),
        render("Preview-only findings (reported with --preview only)", preview, "rule"),
    ]  # fmt: skip
    (OUT / "check_tables.md").write_text("\n".join(parts))
    sys.stdout.write("\n".join(parts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
