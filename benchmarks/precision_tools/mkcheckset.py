"""Write corpus.json for a fresh check-only precision set (issue 23, "How to measure").

A check set (v9 onward) has no tuning half, so mkcorpus.py's size pairs and seeded draw do not
apply; the counting does, and is reused from there so that every set counts lines the same way.
Run once, BEFORE any jaxlint run on the repositories:

    python benchmarks/precision_tools/mkcheckset.py OUTDIR ROOT

OUTDIR holds notes.json ({"what": ..., "built": ..., "selection_notes": [...]}) and repos.json
(a list of "owner/name", or of {"repo": "owner/name", ...extra fields kept as given, e.g.
"excluded_paths"}); corpus.json is written there. ROOT/repos/OWNER+NAME is the exported snapshot
and /work/.mirror/OWNER+NAME/repo its git directory.
"""

import json
import pathlib
import sys

from mkcorpus import git, nb_lines


def count(d: pathlib.Path) -> tuple[int, int]:
    """Python lines (mkcorpus.py's count) and lines of files that import jax, under d.

    The second number is the selection measure, stated so that a reader can redo it: a file
    counts when a line starts with ``import jax`` or ``from jax`` (after indentation).
    """
    py = jl = 0
    for p in d.rglob("*.py"):
        lines = p.read_bytes().splitlines()
        py += len(lines)
        if any(ln.lstrip().startswith((b"import jax", b"from jax")) for ln in lines):
            jl += len(lines)
    return py, jl


def main() -> None:
    """Count every listed repository and write corpus.json with all of them in the check half."""
    out_dir, root = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    notes = json.loads((out_dir / "notes.json").read_text())
    listed = json.loads((out_dir / "repos.json").read_text())
    repos = []
    for item in listed:
        extra = {"repo": item} if isinstance(item, str) else dict(item)
        name = extra.pop("repo")
        key = name.replace("/", "+")
        gd = f"/work/.mirror/{key}/repo"
        if pathlib.Path(gd, ".git").is_dir():
            gd += "/.git"
        d = root / "repos" / key
        py, jl = count(d)
        nb = nb_lines(d)
        repos.append(
            {
                "repo": name,
                "commit": git(gd, "rev-parse", "HEAD"),
                "commit_date": git(gd, "log", "-1", "--format=%cs"),
                "python_lines": py,
                "jax_import_lines": jl,
                "notebook_code_lines": nb,
                "notebooks": len(list(d.rglob("*.ipynb"))),
                "path": str(d),
                **extra,
                "half": "check",
            }
        )
    out = {
        **notes,
        "repos": repos,
        "totals": {
            "repos": len(repos),
            "python_lines": sum(r["python_lines"] for r in repos),
            "jax_import_lines": sum(r["jax_import_lines"] for r in repos),
            "notebook_code_lines": sum(r["notebook_code_lines"] for r in repos),
        },
    }
    (out_dir / "corpus.json").write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps(out["totals"]))
    for r in repos:
        print(r["repo"], r["commit"][:8], r["python_lines"], r["notebook_code_lines"])


if __name__ == "__main__":
    main()
