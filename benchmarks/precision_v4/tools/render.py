"""Render tuning_review.json and tuning-fps.md (tuning half of precision v4) from the worklist
(/work/precision-v4/tuning/worklist.json, tools/worklist.py) and the verdicts (tools/verdicts.py)."""

import collections
import json
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE.parent
sys.path.insert(0, str(HERE))
from roots import ROOTS  # noqa: E402
from verdicts import V  # noqa: E402

REPOS = pathlib.Path("/work/precision-v4/repos")
W = json.load(open("/work/precision-v4/tuning/worklist.json"))
FAM = {
    "1": "JAX1xx tracing",
    "2": "JAX2xx PRNG",
    "4": "JAX4xx compile",
    "5": "JAX5xx mutation/side effects",
    "6": "JAX6xx benchmarking",
    "7": "JAX7xx dtypes",
}


def excerpt(r):
    base = REPOS / r["repo"] / r["path"]
    try:
        if r["cell"]:
            s = json.load(open(base))["cells"][r["cell"] - 1]["source"]
            lines = ("".join(s) if isinstance(s, list) else s).splitlines()
        else:
            lines = base.read_text(encoding="utf-8", errors="replace").splitlines()
        return lines[r["line"] - 1].strip()
    except Exception as e:  # pragma: no cover
        return f"<{e}>"


groups = collections.OrderedDict()
for r in W["rows"]:
    if r["in_sample"]:
        groups.setdefault((r["repo"], r["path"], r["line"], r["code"], r["cell"]), []).append(r)

review = []
for (repo, path, line, code, cell), g in groups.items():
    verdict, root, reason = V[(repo, path, line, code)]
    x = {
        "repo": repo,
        "path": path,
        "line": line,
        "cell": cell,
        "code": code,
        "confidence": g[0]["conf"],
        "selection": g[0]["selection"],
        "verdict": verdict,
        "reason": reason,
        "reviewed": "full",
    }
    if len(g) > 1:
        x["findings"] = len(g)
    if root:
        x["root_cause"] = root
        x["repro"] = "benchmarks/precision_v4/repros/" + ROOTS[root]["repro"]
    review.append(x)
(OUT / "tuning_review.json").write_text(json.dumps(review, indent=1, ensure_ascii=False) + "\n")


def wilson(by):
    return subprocess.run(
        [
            sys.executable,
            str(OUT.parent / "wilson.py"),
            str(OUT / "tuning_review.json"),
            "--by",
            by,
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


corpus = json.load(open(OUT / "corpus.json"))
tun = [r for r in corpus["repos"] if r["half"] == "tuning"]
counts = collections.Counter(r["code"][3] for r in W["rows"] if r["selection"] == "default")
rule_counts = collections.Counter(r["code"] for r in W["rows"] if r["selection"] == "default")
preview_only = sum(r["selection"] == "preview-only" for r in W["rows"])
fam = collections.defaultdict(collections.Counter)
for x in review:
    fam[x["code"][3]][x["verdict"]] += x.get("findings", 1)

out = [
    "# Precision v4, TUNING half: false positives by root cause",
    "",
    "Issue 23, 'How to measure'. Corpus and split: `benchmarks/precision_v4/corpus.json` and",
    "`flips.txt` (committed before any lint run). Tuning half ({} repos, {} .py lines + {} notebook".format(
        len(tun), sum(r["python_lines"] for r in tun), sum(r["notebook_code_lines"] for r in tun)
    ),
    "code lines): " + ", ".join(f"{r['repo']} `{r['commit'][:8]}`" for r in tun) + ".",
    "",
    "jaxlint: main at `330b186` (worktree r4-corpus), each repository linted from its own root,",
    "`python -m jaxlint check --format json --no-cache .` and the same with `--preview`",
    "(`benchmarks/precision_v4/tools/lint_tuning.sh`); outputs in `benchmarks/precision_v4/findings/`.",
    f"At 330b186 no rule is in preview, so the two runs are identical ({preview_only} preview-only findings).",
    "**The check half was not linted.**",
    "",
    "Every behavioural finding (JAX1/2/4/5/6/7) was read in context; JAX2xx has {} findings, under the".format(
        counts["2"]
    ),
    "60 sampling bar, so all were read. Verdicts in `tuning_review.json` (schema of precision_v3 plus",
    "`confidence` and `selection`). Each reproduction in `benchmarks/precision_v4/repros/` runs on",
    "JAX 0.12 (`/work/venv/bin/python FILE`) and makes jaxlint at 330b186 report the finding.",
    "",
    "## Counts (tuning half, default selection)",
    "",
    "| family | findings | TP | FP | DEBATABLE | precision TP/(TP+FP) |",
    "|---|---:|---:|---:|---:|---:|",
]
for f, name in FAM.items():
    c = fam[f]
    tp, fp = c["TP"], c["FP"]
    prec = f"{100 * tp / (tp + fp):.0f}% ({tp}/{tp + fp})" if tp + fp else "–"
    out.append(f"| {name} | {counts[f]} | {tp} | {fp} | {c['DEBATABLE']} | {prec} |")
tot = collections.Counter()
for c in fam.values():
    tot.update(c)
out.append(
    f"| **all behavioural** | **{sum(counts[f] for f in FAM)}** | {tot['TP']} | {tot['FP']} | {tot['DEBATABLE']} | "
    f"**{100 * tot['TP'] / (tot['TP'] + tot['FP']):.0f}%** ({tot['TP']}/{tot['TP'] + tot['FP']}) |"
)
out += [
    "",
    "Per rule: " + ", ".join(f"{k} {v}" for k, v in sorted(rule_counts.items())) + ".",
    "",
    "95% Wilson intervals (`python benchmarks/wilson.py benchmarks/precision_v4/tuning_review.json`):",
    "",
    wilson("family"),
    "By rule and confidence (`--by confidence`):",
    "",
    wilson("confidence"),
]
out += [
    "Notes:",
    "* JAX1xx: by confidence, `medium` is 1 TP / 10 FP (the TP: bonsai umt5 `fp16_clamp`, a float16",
    "  `if ... jnp.isinf(x).any()` under the jitted `forward`, confirmed by running) and `high` 1 TP / 0 FP /",
    "  1 DEBATABLE (sam2 `np.array(masks)` under a flag no caller sets, one of them caught on purpose).",
    "  All 10 FPs are bonsai, two root causes (F1, F2): a Module `__call__` seeded traced without a",
    "  resolved caller, and the host result of `np.array(tracer)` kept traced.",
    "* JAX2xx: 14 TP, 1 FP (F3), 3 DEBATABLE (fixed fixtures whose repetition is harmless: a key per",
    "  decoder-layer test, keys feeding disabled dropout, dummy init inputs). The TPs include a real",
    "  library bug (probdiffeq matfree: the backward conditional's key equals ensemble member 1's key,",
    "  checked), dopamine's replay buffer (env index = time index mod n_envs, checked), eqxvision Swin",
    "  (attention and output dropout masks coincide on their common prefix, checked) and dopamine PPO",
    "  (minibatch permutation from the key already split for action sampling).",
    "* JAX4xx: 2 TP (JAX407 constant conversions in eager loops, negligible cost), 2 FP (F3, F4).",
    "* JAX5xx / JAX6xx / JAX7xx: all TP (dopamine `b_indices[i] = ...` on a jax array, TypeError",
    "  checked; dopamine SPR `AugTime` measures dispatch; int64/float64 without x64).",
    "* Not reviewed (not behavioural): JAX3xx 1, JAX8xx 33 (JAX801 7, JAX804 9, JAX806 13, JAX809 2,",
    "  JAX810 2); JAX000 6 (dopamine files that do not parse: copybara placeholders such as",
    "  `.learning.deepmind.xmanager2.client.google as xm`). Five repositories have no behavioural",
    "  finding at all (nanodo, tracr, jestimator, jaxley, quax).",
    "",
]
by_root = collections.defaultdict(list)
for x in review:
    if x["verdict"] == "FP":
        by_root[x["root_cause"]].append(x)
ranked = sorted(by_root.items(), key=lambda kv: -sum(x.get("findings", 1) for x in kv[1]))
out += [
    "## False positives by root cause (ranked by count)",
    "",
    "| rank | root cause | rules | FP | repos |",
    "|---:|---|---|---:|---|",
]
for i, (root, items) in enumerate(ranked, 1):
    rules = ", ".join(sorted({x["code"] for x in items}))
    repos = ", ".join(sorted({x["repo"].replace("+", "/") for x in items}))
    n = sum(x.get("findings", 1) for x in items)
    out.append(f"| {i} | {root}: {ROOTS[root]['title']} | {rules} | {n} | {repos} |")
out.append("")
for root, items in ranked:
    meta = ROOTS[root]
    n = sum(x.get("findings", 1) for x in items)
    out += [f"### {root}. {meta['title']} ({n} FP)", "", meta["fact"], ""]
    for x in items:
        cell = f" (cell {x['cell']})" if x["cell"] else ""
        dup = f" ×{x['findings']}" if x.get("findings", 1) > 1 else ""
        r = next(
            g[0] for k, g in groups.items() if k[:4] == (x["repo"], x["path"], x["line"], x["code"])
        )
        out.append(
            f"- **{x['repo'].replace('+', '/')}** `{x['path']}:{x['line']}`{cell} {x['code']} "
            f"({x['confidence']}){dup}: `{excerpt(r)[:120]}` — {x['reason']}"
        )
    out.append("")
    for name in [meta["repro"], *meta.get("more", [])]:
        out += [
            f"Reproduction `benchmarks/precision_v4/repros/{name}` (runs on JAX 0.12; jaxlint at 330b186 reports it):",
            "",
            "```python",
            (OUT / "repros" / name).read_text().rstrip(),
            "```",
            "",
        ]
out += ["## True positives and DEBATABLE", ""]
for x in review:
    if x["verdict"] != "FP":
        cell = f" (cell {x['cell']})" if x["cell"] else ""
        dup = f" ×{x['findings']}" if x.get("findings", 1) > 1 else ""
        out.append(
            f"- {x['verdict']} {x['repo'].replace('+', '/')} `{x['path']}:{x['line']}`{cell} {x['code']}{dup}: {x['reason']}"
        )
(OUT / "tuning-fps.md").write_text("\n".join(out) + "\n")
for f, name in FAM.items():
    print(name, dict(fam[f]))
