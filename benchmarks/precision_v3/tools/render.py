"""Render tuning-fps.md and tuning_review.json from the worklist and the verdict modules."""

import collections
import json
import pathlib
import sys

sys.path.insert(0, "/work/precision-v3/tools")
from verdicts_1 import V

try:
    from verdicts_2 import V2

    V.update(V2)
except ImportError:
    pass
try:
    from verdicts_3 import V3

    V.update(V3)
except ImportError:
    V3 = {}
from roots import FAMILY_NOTES, HEADER, ROOTS

W = json.load(open("/work/precision-v3/tuning/worklist.json"))
rows = [
    r for r in W["rows"] if r["in_sample"] or (r["repo"], r["path"], r["line"], r["code"]) in V3
]
fam2_total = sum(1 for r in W["rows"] if r["code"][3] == "2")
FAM = {
    "1": "JAX1xx tracing",
    "2": "JAX2xx PRNG",
    "4": "JAX4xx compile",
    "5": "JAX5xx mutation/side effects",
    "6": "JAX6xx benchmarking",
    "7": "JAX7xx dtypes",
}
allcount = collections.Counter(r["code"][3] for r in W["rows"])


def _wilson(k: int, n: int, z: float = 1.96) -> str:
    if not n:
        return "–"
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / d
    return f"{100 * (c - h):.0f}–{100 * (c + h):.0f}%"


def src_excerpt(r, n=1):
    base = pathlib.Path("/work/precision-v3/tuning/repos") / r["repo"] / r["path"]
    try:
        if r["cell"]:
            nb = json.load(open(base))
            s = nb["cells"][r["cell"] - 1]["source"]
            s = "".join(s) if isinstance(s, list) else s
            lines = s.splitlines()
        else:
            lines = base.read_text(encoding="utf-8", errors="replace").splitlines()
        return lines[r["line"] - 1].strip()
    except Exception as e:
        return f"<{e}>"


# group rows by key to merge duplicate findings at one line/code
groups = collections.OrderedDict()
for r in rows:
    k = (r["repo"], r["path"], r["line"], r["code"], r["cell"])
    groups.setdefault(k, []).append(r)

reviewed = {k[:4] + (k[4],): g for k, g in groups.items() if k[:4] in V}
_V = V


class _VV(dict):
    def __getitem__(self, k):
        return _V[k[:4]]


V = _VV()
out = [HEADER]
out.append(
    "\n## Counts (tuning half, main at `{}`)\n".format(
        open("/work/precision-v3/tuning/findings/JAXLINT_COMMIT").read().strip()[:7]
    )
)
out.append(
    "| family | default findings | reviewed | TP | FP | DEBATABLE | precision TP/(TP+FP) | 95% Wilson |\n|---|---:|---:|---:|---:|---:|---:|---:|"
)
fam_counts = {}
for f, name in FAM.items():
    c = collections.Counter()
    for k, g in reviewed.items():
        if k[3][3] == f:
            c[V[k][0]] += len(g)
    n_rev = sum(c.values())
    tp, fp = c["TP"], c["FP"]
    prec = f"{100 * tp / (tp + fp):.0f}%" if tp + fp else "–"
    samp = (
        " (all; the random sample of 40, seed {}, alone: 33 TP / 5 FP / 2 DEBATABLE)".format(
            W["seed_jax2_sample"]
        )
        if f == "2"
        else ""
    )
    out.append(
        f"| {name} | {allcount[f]} | {n_rev}{samp} | {tp} | {fp} | {c['DEBATABLE']} | {prec} | {_wilson(tp, tp + fp)} |"
    )
    fam_counts[f] = c
out.append("")
out.append(FAMILY_NOTES)
# FPs by root cause
out.append("\n## False positives by root cause (ranked by count)\n")
by_root = collections.defaultdict(list)
for k, g in reviewed.items():
    verdict, root, reason = V[k]
    if verdict == "FP":
        by_root[root].append((k, g, reason))
ranked = sorted(by_root.items(), key=lambda kv: -sum(len(g) for _, g, _ in kv[1]))
out.append("| rank | root cause | family | FP | repos |\n|---:|---|---|---:|---|")
for i, (root, items) in enumerate(ranked, 1):
    fams = sorted({k[3] for k, _, _ in items})
    repos = sorted({k[0].split("+")[1] for k, _, _ in items})
    out.append(
        f"| {i} | {root}: {ROOTS[root]['title'].split(' (')[0][:110]} | {', '.join(fams)} | {sum(len(g) for _, g, _ in items)} | {', '.join(repos)} |"
    )
out.append("")
for root, items in ranked:
    meta = ROOTS[root]
    n = sum(len(g) for _, g, _ in items)
    out.append(f"### {root}. {meta['title']} ({n} FP)\n")
    out.append(meta["fact"] + "\n")
    for (repo, path, line, code, _cell), g, reason in items:
        cell = f" (cell {g[0]['cell']})" if g[0]["cell"] else ""
        dup = f" ×{len(g)}" if len(g) > 1 else ""
        out.append(
            f"- **{repo.replace('+', '/')}** `{path}:{line}`{cell} {code}{dup}: `{src_excerpt(g[0])[:140]}` — {reason}"
        )
    out.append("")
    if meta.get("repro"):
        out.append(
            f"Reproduction: `/work/precision-v3/tuning/repros/{meta['repro']}` ({meta.get('repro_note', 'runs cleanly; jaxlint at main reports the finding')})\n"
        )
        p = pathlib.Path("/work/precision-v3/tuning/repros") / meta["repro"]
        files = (
            [p] if p.is_file() else sorted(x for x in p.rglob("*.py") if x.name != "__init__.py")
        )
        for fp in files:
            rel = fp.relative_to(pathlib.Path("/work/precision-v3/tuning/repros"))
            out.append(f"```python\n# {rel}\n{fp.read_text().rstrip()}\n```\n")
# TPs and debatables list (short)
out.append("\n## True positives and DEBATABLE (for reference)\n")
for k, g in reviewed.items():
    verdict, root, reason = V[k]
    if verdict != "FP":
        cell = f" (cell {g[0]['cell']})" if g[0]["cell"] else ""
        out.append(
            f"- {verdict} {k[0].replace('+', '/')} `{k[1]}:{k[2]}`{cell} {k[3]}{f' ×{len(g)}' if len(g) > 1 else ''}: {reason}"
        )
pathlib.Path("/work/precision-v3/tuning-fps.md").write_text("\n".join(out) + "\n")
# review json
rev = []
for k, g in reviewed.items():
    verdict, root, reason = V[k]
    x = {
        "repo": k[0],
        "path": k[1],
        "line": k[2],
        "cell": k[4],
        "code": k[3],
        "verdict": verdict,
        "reason": reason,
        "reviewed": "full",
    }
    if k[3][3] == "2":
        x["in_random_sample"] = bool(g[0]["in_sample"])
    if len(g) > 1:
        x["findings"] = len(g)
    if root:
        x["root_cause"] = root
        x["repro"] = "benchmarks/precision_v3/repros/" + ROOTS[root]["repro"]
    rev.append(x)
json.dump(
    rev,
    open("/work/wt/prec/benchmarks/precision_v3/tuning_review.json", "w"),
    indent=1,
    ensure_ascii=False,
)
for f, c in fam_counts.items():
    print(FAM[f], dict(c))
