"""show.py REPO PATH LINE [CELL] [BEFORE] [AFTER]: print source around a finding (notebook cells supported)."""

import json
import sys

repo, path, line = sys.argv[1], sys.argv[2], int(sys.argv[3])
cell = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4] not in ("-", "None") else None
b = int(sys.argv[5]) if len(sys.argv) > 5 else 25
a = int(sys.argv[6]) if len(sys.argv) > 6 else 10
full = f"/work/precision-v4/repos/{repo}/{path}"
if cell is not None:
    nb = json.load(open(full))
    code = [c for c in nb["cells"]]
    src = code[cell - 1]["source"]
    src = "".join(src) if isinstance(src, list) else src
    lines = src.splitlines()
else:
    lines = open(full, encoding="utf-8", errors="replace").read().splitlines()
for i in range(max(1, line - b), min(len(lines), line + a) + 1):
    print(f"{i:5d}{'>' if i == line else ' '} {lines[i - 1]}")
