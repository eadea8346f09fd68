"""Build corpus.json and the recorded split of a fresh precision corpus (issue 23, "How to measure").

Parameterised form of precision_v4/mkcorpus.py (same counting, pairing and draw), so that a new
corpus does not copy the script again. Run once, BEFORE any jaxlint run on the repositories:

    python benchmarks/precision_tools/mkcorpus.py OUTDIR ROOT SEED

OUTDIR holds kinds.json ({"owner/name": "kind"}) and notes.json ({"what": ..., "built": ...,
"selection_notes": [...]}); corpus.json and flips.txt are written there. ROOT/repos/OWNER+NAME is
the exported snapshot and /work/.mirror/OWNER+NAME/repo its git directory. SEED comes from
`python -c "import secrets; print(secrets.randbits(64))"`. Balancing by size: the repositories
are sorted by lines (python + notebook code cells) and paired consecutively (largest two, next
two, ...); one draw of random.Random(SEED).randrange(2) per pair decides which member goes to the
tuning half (0: the larger, 1: the smaller); the other goes to the check half.
"""

import json
import pathlib
import random
import subprocess
import sys


def nb_lines(d: pathlib.Path) -> int:
    """Code-cell lines of every notebook under d (jaxlint lints notebooks too)."""
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


def git(gd: str, *a: str) -> str:
    """One git command on a bare mirror, its stdout."""
    return subprocess.run(
        ["git", f"--git-dir={gd}", *a], capture_output=True, text=True
    ).stdout.strip()


def main() -> None:
    """Count, pair, draw, and write corpus.json and flips.txt."""
    out_dir, root, seed = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), int(sys.argv[3])
    kind = json.loads((out_dir / "kinds.json").read_text())
    notes = json.loads((out_dir / "notes.json").read_text())
    repos = []
    for name in sorted(kind, key=str.lower):
        key = name.replace("/", "+")
        gd = f"/work/.mirror/{key}/repo"
        if pathlib.Path(gd, ".git").is_dir():
            gd += "/.git"
        d = root / "repos" / key
        py = sum(len(p.read_bytes().splitlines()) for p in d.rglob("*.py"))
        nb = nb_lines(d)
        repos.append(
            {
                "repo": name,
                "kind": kind[name],
                "commit": git(gd, "rev-parse", "HEAD"),
                "commit_date": git(gd, "log", "-1", "--format=%cs"),
                "python_lines": py,
                "notebook_code_lines": nb,
                "lines": py + nb,
                "notebooks": len(list(d.rglob("*.ipynb"))),
                "path": str(d),
            }
        )
    if len(repos) % 2:
        raise SystemExit("an even number of repositories is needed for size pairs")
    rng = random.Random(seed)
    order = sorted(repos, key=lambda r: -r["lines"])
    log = [f"seed {seed} (secrets.randbits(64)); random.Random(seed).randrange(2) per size pair"]
    log.append("0 = the larger of the pair to tuning, 1 = the smaller to tuning")
    for i in range(0, len(order), 2):
        a, b = order[i], order[i + 1]
        draw = rng.randrange(2)
        tun, chk = (a, b) if draw == 0 else (b, a)
        tun["half"], chk["half"] = "tuning", "check"
        tun["draw"] = chk["draw"] = draw
        log.append(
            f"pair {i // 2 + 1}: {a['repo']} ({a['lines']}) / {b['repo']} ({b['lines']}) draw={draw}"
            f" -> tuning {tun['repo']}, check {chk['repo']}"
        )
    (out_dir / "flips.txt").write_text("\n".join(log) + "\n")
    out = {
        **notes,
        "flip_method": "seeded draw, size-balanced: sort by lines, pair consecutively, random.Random(seed).randrange(2) per pair picks the tuning member (see flips.txt)",
        "seed": seed,
        "flip_log": "\n".join(log),
        "repos": repos,
        "totals": {
            h: {
                "repos": sum(r["half"] == h for r in repos),
                "python_lines": sum(r["python_lines"] for r in repos if r["half"] == h),
                "notebook_code_lines": sum(
                    r["notebook_code_lines"] for r in repos if r["half"] == h
                ),
            }
            for h in ("tuning", "check")
        },
    }
    (out_dir / "corpus.json").write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps(out["totals"]))
    for r in repos:
        print(r["half"], r["repo"], r["commit"][:8], r["lines"])


if __name__ == "__main__":
    main()
