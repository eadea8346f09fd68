import glob
import json
import os
import random

rows = []
for f in sorted(glob.glob("/work/precision-v3/tuning/findings/*.json")):
    repo = os.path.basename(f)[:-5]
    for x in json.load(open(f)):
        if x["code"][3] in "124567":
            rows.append(
                dict(
                    repo=repo,
                    path=x["filename"].lstrip("./")
                    if x["filename"].startswith("./")
                    else x["filename"],
                    line=x["location"]["row"],
                    col=x["location"]["column"],
                    cell=x.get("cell"),
                    code=x["code"],
                    conf=x.get("confidence"),
                    msg=x["message"],
                )
            )
fam2 = [r for r in rows if r["code"][3] == "2"]
SEED = 20261202
rng = random.Random(SEED)
sample = set(id(r) for r in rng.sample(fam2, 40))
for r in rows:
    r["reviewed"] = "sample" if r["code"][3] == "2" else "full"
    r["in_sample"] = r["code"][3] != "2" or id(r) in sample
json.dump(
    {"seed_jax2_sample": SEED, "rows": rows},
    open("/work/precision-v3/tuning/worklist.json", "w"),
    indent=1,
)
print(len(rows), len(fam2), sum(r["in_sample"] for r in rows))
