"""Near-copy check of fresh precision candidates against every prior corpus (issue 23).

A fresh set is only fresh if its code was not already seen through a prior corpus: a fork, a
vendored library or a copied trainer would let rules tuned on that corpus look better than they
are. Written for set v11 as the reusable form of the check v10 ran by hand (same measure):

    python benchmarks/precision_tools/overlap_check.py ROOT [--within] [extra_prior_key ...]

For each exported candidate ROOT/repos/OWNER+NAME, the share of its distinct stripped .py lines
(at least 40 characters, not comments) that also occur in the .py files of a prior-corpus repo.
Prior repos: every "repo" of benchmarks/*/corpus.json on /work/main (plus the extra keys given),
read at mirror HEAD (/work/.mirror/KEY/repo) or, without a mirror, from an exported copy under
/work/precision-v*/repos/KEY or /work/corpora/KEY; repos with neither are listed as not compared.
Prints one line per candidate: key, distinct long lines, share, top three sources by shared lines.
With --within (set v14), every other export under ROOT/repos is a source too, so that near-copies
inside the new set show; a line counts as shared only when a repository other than the candidate
itself holds it (without --within a candidate is never among the sources, so nothing changes).
"""

import collections
import glob
import json
import pathlib
import subprocess
import sys

MIN_LEN = 40


def long_lines(texts: list[bytes]) -> set[bytes]:
    """Distinct stripped lines of at least MIN_LEN bytes that are not comments."""
    out = set()
    for t in texts:
        for ln in t.splitlines():
            s = ln.strip()
            if len(s) >= MIN_LEN and not s.startswith(b"#"):
                out.add(s)
    return out


def mirror_py(key: str) -> list[bytes] | None:
    """The .py blobs at HEAD of a bare mirror, or None without a mirror."""
    gd = pathlib.Path(f"/work/.mirror/{key}/repo")
    if not gd.is_dir():
        return None
    if (gd / ".git").is_dir():
        gd = gd / ".git"
    tree = subprocess.run(
        ["git", f"--git-dir={gd}", "ls-tree", "-r", "HEAD"], capture_output=True, text=True
    ).stdout
    shas = [
        ln.split()[2]
        for ln in tree.splitlines()
        if ln.split("\t", 1)[-1].endswith(".py") and ln.split()[1] == "blob"
    ]
    if not shas:
        return []
    res = subprocess.run(
        ["git", f"--git-dir={gd}", "cat-file", "--batch"],
        input=("\n".join(shas) + "\n").encode(),
        capture_output=True,
    ).stdout
    blobs, i = [], 0
    while i < len(res):
        nl = res.index(b"\n", i)
        head = res[i:nl].split()
        if len(head) < 3 or head[1] == b"missing":
            i = nl + 1
            continue
        size = int(head[2])
        blobs.append(res[nl + 1 : nl + 1 + size])
        i = nl + 1 + size + 1
    return blobs


def dir_py(key: str) -> list[bytes] | None:
    """The .py files of an exported copy of a prior repo, or None without one."""
    for d in sorted(glob.glob(f"/work/precision-v*/repos/{key}")) + [f"/work/corpora/{key}"]:
        p = pathlib.Path(d)
        if p.is_dir():
            return [f.read_bytes() for f in p.rglob("*.py")]
    return None


def main() -> None:
    """Index every prior repo's long lines, then score each candidate export."""
    root = pathlib.Path(sys.argv[1])
    within = "--within" in sys.argv[2:]
    prior = {a for a in sys.argv[2:] if a != "--within"}
    for f in glob.glob("/work/main/benchmarks/*/corpus.json"):
        for r in json.loads(pathlib.Path(f).read_text()).get("repos", []):
            prior.add((r["repo"] if isinstance(r, dict) else r).replace("/", "+"))
    where: dict[bytes, list[str]] = collections.defaultdict(list)
    used, missing, total = [], [], 0
    for key in sorted(prior, key=str.lower):
        texts = mirror_py(key)
        src = "mirror"
        if texts is None:
            texts, src = dir_py(key), "export"
        if texts is None:
            missing.append(key)
            continue
        used.append(f"{key}({src})")
        for s in long_lines(texts):
            where[s].append(key)
            total += 1
    print(
        f"# prior repos {len(prior)}, compared {len(used)}, not compared {len(missing)}: "
        + " ".join(missing)
    )
    print(f"prior lines {total}")
    cands = sorted(root.joinpath("repos").iterdir(), key=lambda p: p.name.lower())
    if within:
        for d in cands:
            for s in long_lines([f.read_bytes() for f in d.rglob("*.py")]):
                where[s].append(d.name)
        print(f"# --within: {len(cands)} exports under {root / 'repos'} are sources too")
    for d in cands:
        mine = long_lines([f.read_bytes() for f in d.rglob("*.py")])
        src: collections.Counter[str] = collections.Counter()
        shared = 0
        for s in mine:
            others = set(where.get(s, ())) - {d.name}
            if others:
                shared += 1
                src.update(others)
        share = shared / len(mine) if mine else 0.0
        print(f"{d.name:52} {len(mine):6} {share:.3f} {src.most_common(3)}")


if __name__ == "__main__":
    main()
