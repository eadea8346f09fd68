import json
import pathlib
import subprocess

root = pathlib.Path("/work/precision-v3")
flips = [line.split() for line in open(root / "flips.txt")]
bal = open(root / "balance.txt").read()
moved = ["Sea-Snell/JAXSeq", "google-deepmind/enn", "instadeepai/flashbax", "google-research/t5x"]


def nb_lines(d):
    n = 0
    for p in d.rglob("*.ipynb"):
        try:
            nbj = json.loads(p.read_text(encoding="utf-8"))
        except Exception:
            continue
        for c in nbj.get("cells", []):
            if c.get("cell_type") == "code":
                src = c.get("source", "")
                src = "".join(src) if isinstance(src, list) else src
                n += len(src.splitlines())
    return n


repos = []
for name, coin, half in flips:
    if name in moved:
        half = "check"
    key = name.replace("/", "+")
    git = f"/work/.mirror/{key}/repo"
    sha = subprocess.run(
        ["git", f"--git-dir={git}", "rev-parse", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    date = subprocess.run(
        ["git", f"--git-dir={git}", "log", "-1", "--format=%cs"], capture_output=True, text=True
    ).stdout.strip()
    d = root / half / "repos" / key
    if not d.exists():
        (root / "repos" / key).rename(d)
    py = sum(len(p.read_bytes().splitlines()) for p in d.rglob("*.py"))
    repos.append(
        {
            "repo": name,
            "commit": sha,
            "commit_date": date,
            "python_lines": py,
            "notebook_code_lines": nb_lines(d),
            "notebooks": len(list(d.rglob("*.ipynb"))),
            "coin": coin,
            "half": half,
            "path": str(d),
        }
    )
out = {
    "what": "Fresh precision corpus v3 (issue 23): 26 public JAX repositories, none named in docs/precision.md, benchmarks/, tests/, shared/reports/ or main's git log; split into a tuning half and a held-out check half by a recorded coin flip BEFORE jaxlint was run on any of them.",
    "built": "2026-12-02 by helper H7 (branch r3-prec)",
    "snapshots": "fetch tool mirrors (newest stored snapshot), exported with every blob present (a few large data blobs are absent from the snapshots; no .py file is missing)",
    "selection_notes": [
        "exclusion check: each owner/name and repository name grepped (case-insensitive) in docs/precision.md, benchmarks/ (incl. precision_review*.json, recall/), tests/, /work/shared/reports/ and main's git log + /work/issues; owner-only hits for organisations (google, google-deepmind, google-research, instadeepai) were not counted as hits, since the orgs have hundreds of unrelated repositories",
        "the 25 repositories of the issue-23 measurement are not listed anywhere on disk, so they could not be excluded by name",
        "fetched but dropped before the flip: AI-Hypercomputer/maxdiffusion (112k lines, above the size range), google/objax and google-deepmind/jraph (replaced by danielward27/flowjax and dynamiqs/dynamiqs so that equinox-based code is represented); google-deepmind/torax could not be fetched (snapshot over 500 MB)",
    ],
    "flip_method": "python3 -c 'import secrets; ...' printing secrets.randbelow(2) per repository in the alphabetical order of repos.txt: 1 = heads = tuning, 0 = tails = check",
    "flip_log": open(root / "flips.txt").read(),
    "balance_log": "the flips gave 17 tuning / 9 check; 4 tuning repositories were moved to check by secrets.SystemRandom().sample(tuning, 4):\n"
    + bal,
    "repos": repos,
    "totals": {
        h: {
            "repos": sum(r["half"] == h for r in repos),
            "python_lines": sum(r["python_lines"] for r in repos if r["half"] == h),
            "notebook_code_lines": sum(r["notebook_code_lines"] for r in repos if r["half"] == h),
        }
        for h in ("tuning", "check")
    },
}
json.dump(out, open(root / "corpus.json", "w"), indent=1)
print(json.dumps(out["totals"]))
for r in repos:
    print(r["half"], r["repo"], r["commit"][:8], r["python_lines"], r["notebook_code_lines"])
