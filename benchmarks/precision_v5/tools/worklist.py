"""Worklist of corpus v5 (every repository is check set).

Rows: every finding of a PREVIEW rule reported with --preview only ("selection": "preview"),
every default-selection finding of JAX1xx, JAX4xx, JAX5xx, JAX6xx, JAX7xx, and of the
default JAX2xx findings a seeded sample of at most 30 (in_sample). Per-rule sampling (at most
25 per rule, seeded) applies only when the rows exceed ~120.
"""

import collections
import glob
import json
import os
import random

F = "/work/precision-v5/findings"
OUT = "/work/wt/v5/benchmarks/precision_v5/worklist.json"
SEED = 20261202_5
FULL = "14567"


def load(path):
    out = []
    for x in json.load(open(path)):
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


def key(r):
    return (r["path"], r["line"], r["col"], r["cell"], r["code"])


rows = []
for f in sorted(glob.glob(f"{F}/*.json")):
    if f.endswith(".preview.json"):
        continue
    repo = os.path.basename(f)[:-5]
    plain = load(f)
    prev = load(f"{F}/{repo}.preview.json")
    seen = collections.Counter(key(r) for r in plain)
    for r in plain:
        if r["code"][3] in FULL + "2":
            rows.append(dict(repo=repo, selection="default", **r))
    for r in prev:
        if seen[key(r)]:
            seen[key(r)] -= 1
            continue
        rows.append(dict(repo=repo, selection="preview", **r))
rng = random.Random(SEED)
fam2 = [r for r in rows if r["code"][3] == "2" and r["selection"] == "default"]
sample = set(map(id, rng.sample(fam2, 30))) if len(fam2) > 30 else set(map(id, fam2))
for r in rows:
    r["in_sample"] = r["code"][3] != "2" or r["selection"] != "default" or id(r) in sample
n = sum(r["in_sample"] for r in rows)
assert n <= 125, "more than ~120 rows: sample per rule"
json.dump(
    {
        "seed_jax2_sample": SEED if len(fam2) > 30 else None,
        "per_rule_sampling": None,
        "rows": rows,
    },
    open(OUT, "w"),
    indent=1,
)
c = collections.Counter((r["code"], r["selection"]) for r in rows if r["in_sample"])
for k in sorted(c):
    print(k, c[k])
print(len(rows), "rows;", len(fam2), "default JAX2xx;", n, "to review")
