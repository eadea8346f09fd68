"""Worklist of the behavioural findings of a linted precision corpus (issue 23, "How to measure").

Parameterised form of precision_v4/tools/worklist.py:

    python benchmarks/precision_tools/worklist.py FINDINGS_DIR OUT_JSON SEED [SAMPLE_OVER [SAMPLE_SIZE]]

Rows: every finding of the families JAX1xx, 2xx, 4xx, 5xx, 6xx, 7xx, each with "selection":
"default" (reported by the plain run) or "preview" (reported only with --preview). When the
default JAX201 rows number more than SAMPLE_OVER (120), a seeded random sample of SAMPLE_SIZE (60)
of them is marked in_sample; every other row is in_sample.
"""

import collections
import glob
import json
import os
import random
import sys

BEHAVIOURAL = "124567"


def load(path: str) -> list[dict]:
    """The findings of one jaxlint JSON report, reduced to what a reviewer needs."""
    out = []
    try:
        report = json.load(open(path))
    except json.JSONDecodeError:
        # a run that stopped without a report (v42: kc-ml2/meent's .gitignore) is no
        # repository without findings: stop here, before any row is written
        sys.exit(f"{path}: not a JSON report (jaxlint stopped? see {path}.stderr)")
    for x in report:
        fn = x["filename"]
        fn = fn[2:] if fn.startswith("./") else fn
        out.append(
            dict(
                path=fn,
                line=x["location"]["row"],
                col=x["location"]["column"],
                cell=x.get("cell"),
                code=x["code"],
                conf=x.get("confidence"),
                msg=x["message"],
            )
        )
    return out


def key(r: dict) -> tuple:
    """Identity of a finding across the plain and the preview run."""
    return (r["path"], r["line"], r["col"], r["cell"], r["code"])


def main() -> None:
    """Build the worklist and print its counts per (code, selection)."""
    F, OUT, SEED = sys.argv[1], sys.argv[2], int(sys.argv[3])
    over = int(sys.argv[4]) if len(sys.argv) > 4 else 120
    size = int(sys.argv[5]) if len(sys.argv) > 5 else 60
    rows = []
    for f in sorted(glob.glob(f"{F}/*.json")):
        if f.endswith(".preview.json"):
            continue
        repo = os.path.basename(f)[:-5]
        plain = load(f)
        prev = load(f"{F}/{repo}.preview.json")
        seen = collections.Counter(key(r) for r in plain)
        for r in plain:
            if r["code"][3] in BEHAVIOURAL:
                rows.append(dict(repo=repo, selection="default", **r))
        for r in prev:
            if seen[key(r)]:
                seen[key(r)] -= 1
                continue
            if r["code"][3] in BEHAVIOURAL:
                rows.append(dict(repo=repo, selection="preview", **r))
    j201 = [r for r in rows if r["code"] == "JAX201" and r["selection"] == "default"]
    sampled = len(j201) > over
    sample = set(map(id, random.Random(SEED).sample(j201, size))) if sampled else set()
    for r in rows:
        r["in_sample"] = not sampled or r not in j201 or id(r) in sample
    json.dump(
        {"seed_jax201_sample": SEED if sampled else None, "rows": rows}, open(OUT, "w"), indent=1
    )
    c = collections.Counter((r["code"], r["selection"]) for r in rows)
    for k in sorted(c):
        print(*k, c[k])
    print(
        len(rows),
        "rows;",
        len(j201),
        "default JAX201;",
        sum(r["in_sample"] for r in rows),
        "to review",
    )


if __name__ == "__main__":
    main()
