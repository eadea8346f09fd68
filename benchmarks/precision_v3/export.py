"""Export HEAD of a bare mirror to a directory, skipping blobs absent from the snapshot."""

import os
import subprocess
import sys

git, out = sys.argv[1], sys.argv[2]
ls = subprocess.run(
    ["git", f"--git-dir={git}", "ls-tree", "-r", "-z", "HEAD"], capture_output=True, check=True
).stdout
entries = []
for rec in ls.split(b"\0"):
    if not rec:
        continue
    meta, path = rec.split(b"\t", 1)
    mode, typ, sha = meta.split()
    if typ != b"blob" or mode == b"120000":
        continue
    entries.append((sha.decode(), path.decode()))
p = subprocess.Popen(
    ["git", f"--git-dir={git}", "cat-file", "--batch"],
    stdin=subprocess.PIPE,
    stdout=subprocess.PIPE,
)
missing = 0
for sha, path in entries:
    p.stdin.write(sha.encode() + b"\n")
    p.stdin.flush()
    header = p.stdout.readline().split()
    if header[-1] == b"missing":
        missing += 1
        continue
    size = int(header[2])
    data = p.stdout.read(size)
    p.stdout.read(1)
    dst = os.path.join(out, path)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    with open(dst, "wb") as f:
        f.write(data)
p.stdin.close()
p.wait()
print(f"{out}: {len(entries) - missing} files, {missing} missing")
