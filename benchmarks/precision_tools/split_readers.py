"""Split a check worklist among readers by repository (issue 23, "How to measure").

    python benchmarks/precision_tools/split_readers.py WORKLIST_JSON N

Writes WORKLIST_A.json, WORKLIST_B.json, ... next to WORKLIST_JSON (`check_worklist.json` ->
`check_worklist_A.json`): each a list of the rows to read (in_sample only), every repository
with one reader (a reader sees a repository whole), the parts balanced by row count (the
largest repositories first, each to the reader with the fewest rows so far; ties by letter).
Deterministic: the same worklist gives the same parts.
"""

from __future__ import annotations

import collections
import json
import pathlib
import string
import sys


def split(rows: list[dict], n: int) -> list[list[dict]]:
    """The rows in `n` parts, each repository in one part, balanced by row count."""
    by_repo: dict[str, list[dict]] = collections.defaultdict(list)
    for r in rows:
        by_repo[r["repo"]].append(r)
    parts: list[list[dict]] = [[] for _ in range(n)]
    for repo in sorted(by_repo, key=lambda k: (-len(by_repo[k]), k)):
        smallest = min(range(n), key=lambda i: (len(parts[i]), i))
        parts[smallest].extend(by_repo[repo])
    return parts


def main() -> None:
    path, n = pathlib.Path(sys.argv[1]), int(sys.argv[2])
    data = json.loads(path.read_text())
    rows = [r for r in data["rows"] if r.get("in_sample", True)]
    for letter, part in zip(string.ascii_uppercase, split(rows, n)):
        out = path.with_name(f"{path.stem}_{letter}.json")
        out.write_text(json.dumps(part, indent=1))
        print(out.name, len(part), "rows,", len({r["repo"] for r in part}), "repositories")


if __name__ == "__main__":
    main()
