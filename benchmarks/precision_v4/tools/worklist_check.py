"""Worklist of the behavioural findings (JAX1/2/4/5/6/7) of the CHECK half, default and preview.

Each row: repo, path, line, col, cell, code, confidence, message, and "selection": "default"
(reported by the plain run) or "preview" (reported only with --preview). JAX2xx: if the
family has more than 80 rows, a random sample of 60 (seeded, recorded) is marked in_sample.
"""

import collections
import glob
import json
import os
import random

F = "/work/precision-v4/check/findings"
SEED = 20261202_23
BEHAVIOURAL = "124567"


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
        if r["code"][3] in BEHAVIOURAL:
            rows.append(dict(repo=repo, selection="default", **r))
    for r in prev:
        if seen[key(r)]:
            seen[key(r)] -= 1
            continue
        if r["code"][3] in BEHAVIOURAL:
            rows.append(dict(repo=repo, selection="preview", **r))
fam2 = [r for r in rows if r["code"][3] == "2" and r["selection"] == "default"]
rng = random.Random(SEED)
sample = set(map(id, rng.sample(fam2, 60))) if len(fam2) > 80 else set(map(id, fam2))
for r in rows:
    r["in_sample"] = r["code"][3] != "2" or r["selection"] != "default" or id(r) in sample
json.dump(
    {"seed_jax2_sample": SEED if len(fam2) > 80 else None, "rows": rows},
    open("/work/precision-v4/check/worklist.json", "w"),
    indent=1,
)
c = collections.Counter((r["code"], r["selection"]) for r in rows)
for k in sorted(c):
    print(k, c[k])
print(
    len(rows), "rows;", len(fam2), "default JAX2xx;", sum(r["in_sample"] for r in rows), "to review"
)
