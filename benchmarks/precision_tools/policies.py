"""Replay the check sets under other versions of the standing rule (the owner question of
stops 39-44: pool across sets, or keep a per-set minimum; should leaving need a minimum
number of rows as coming back does?).

    python benchmarks/precision_tools/policies.py [FIRST [LAST]]    (default: v15 .. the newest)

Every behavioural row of every check set since v15 was read in context by readers who tuned
nothing (`check_review.json`), whatever the selection it was linted under, so each policy can
be replayed on the same verdicts. A rule part is a code, or a code at one confidence level
where the default selection decides per level (JAX201 high). Each part starts in the state
its rows had in the first set (`selection` of its rows there), and each set moves it:

- `as written` (the standing rule, pre-registered in every set's notes.json): a default part
  under 90% on that set leaves; a preview part at 90% or more on at least 10 decided rows
  (at most 4 of one repository counted) comes back.
- `symmetric`: as written, but leaving too needs at least 10 capped decided rows on the set.
- `pooled`: in the default selection after a set when all its decided rows since the first
  set give 90% or more on at least 10 capped rows (4 per repository and set), out otherwise.
- `last five`: as `pooled`, over the rows of the part's last five sets with rows.

It prints, per part, the rows of each set (TP/FP, capped) and the state each policy leaves it
in, then how many recall cases (tests/test_recall_corpus.py: DETECTED and PREVIEW_ONLY, by the
code in each case's comment) each policy's default selection would find. The figures are
computed from the verdicts as they were given: a later fix that removed a false positive does
not change an earlier set's row.
"""

from __future__ import annotations

import collections
import json
import math
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
THRESHOLD = 0.90
MIN_CAPPED = 10
PER_REPO_CAP = 4
# the parts the default selection decides per confidence level (jaxlint/core/codes.py)
BY_LEVEL = {"JAX201", "JAX121", "JAX130"}


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return ((c - h) / d, (c + h) / d)


def part_of(row: dict) -> str:
    code = row["code"]
    return f"{code} {row.get('confidence')}" if code in BY_LEVEL else code


def load(first: int, last: int | None) -> list[tuple[str, list[dict]]]:
    sets = []
    for path in sorted(
        ROOT.glob("benchmarks/precision_v*/check_review.json"),
        key=lambda p: int(p.parent.name.removeprefix("precision_v")),
    ):
        n = int(path.parent.name.removeprefix("precision_v"))
        if n >= first and (last is None or n <= last):
            sets.append((f"v{n}", json.loads(path.read_text(encoding="utf-8"))))
    return sets


def decided(rows: list[dict]) -> tuple[int, int, int]:
    """TP, FP and the capped count of decided rows (4 per repository)."""
    tp = sum(r["verdict"] == "TP" for r in rows)
    fp = sum(r["verdict"] == "FP" for r in rows)
    per_repo = collections.Counter(r["repo"] for r in rows if r["verdict"] in ("TP", "FP"))
    return tp, fp, sum(min(PER_REPO_CAP, n) for n in per_repo.values())


def replay(sets: list[tuple[str, list[dict]]]) -> dict[str, dict]:
    parts: dict[str, dict] = {}
    for name, rows in sets:
        by_part: dict[str, list[dict]] = collections.defaultdict(list)
        for r in rows:
            if r["code"][3] in "124567":
                by_part[part_of(r)].append(r)
        for part, rs in by_part.items():
            start = rs[0]["selection"] == "default"
            info = parts.setdefault(
                part,
                {
                    "first": name,
                    "as written": start,
                    "symmetric": start,
                    "pooled": start,
                    "last five": start,
                    "sets": [],
                    "pool": [],
                },
            )
            tp, fp, capped = decided(rs)
            info["sets"].append((name, tp, fp, capped))
            # pooled rows: a repository's cap applies per set (its rows there)
            info["pool"].append((tp, fp, capped))
            n = tp + fp
            ok = n > 0 and tp / n >= THRESHOLD
            for policy in ("as written", "symmetric"):
                if info[policy]:
                    if n and not ok and (policy == "as written" or capped >= MIN_CAPPED):
                        info[policy] = False
                elif ok and capped >= MIN_CAPPED:
                    info[policy] = True
            for policy, pool in (("pooled", info["pool"]), ("last five", info["pool"][-5:])):
                ptp = sum(t for t, _, _ in pool)
                pfp = sum(f for _, f, _ in pool)
                if ptp + pfp and sum(c for _, _, c in pool) >= MIN_CAPPED:
                    info[policy] = ptp / (ptp + pfp) >= THRESHOLD
    return parts


def recall_findings() -> dict[str, list[tuple[str, str]]]:
    """Recall case -> the (code, confidence) of every finding on its bad program that counts
    for it (a code its header expects), from one `--preview` run of jaxlint over the cases
    (benchmarks/recall.py's `lint`)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    sys.path.insert(0, str(ROOT / "benchmarks" / "recall"))
    from cases import load_cases  # noqa: PLC0415
    from recall import lint  # noqa: PLC0415

    cases = load_cases()
    found = lint([c.bad for c in cases], [sys.executable, "-m", "jaxlint"], preview=True)
    return {
        c.name: [
            (str(f["code"]), str(f.get("confidence")))
            for f in found[c.bad.resolve()]
            if f["code"] in c.expect
        ]
        for c in cases
    }


def in_default(code: str, confidence: str, parts: dict[str, dict], policy: str) -> bool:
    """A finding of `code` at `confidence` is in `policy`'s default selection: its part's
    state after the last set, or, for a part no set had rows of, today's table."""
    from jaxlint.core.codes import PREVIEW  # noqa: PLC0415

    part = f"{code} {confidence}" if code in BY_LEVEL else code
    if part in parts:
        return bool(parts[part][policy])
    return code not in PREVIEW and (code, confidence) not in PREVIEW


def main(argv: list[str]) -> int:
    first = int(argv[1].lstrip("v")) if len(argv) > 1 else 15
    last = int(argv[2].lstrip("v")) if len(argv) > 2 else None
    sets = load(first, last)
    parts = replay(sets)
    policies = ("as written", "symmetric", "pooled", "last five")
    print(f"sets: {', '.join(n for n, _ in sets)}")
    print()
    print(
        "| part | rows per set (TP/FP, capped) | pooled TP/FP [95% Wilson] | "
        + " | ".join(policies)
        + " |"
    )
    print("|---|---|---|" + "---|" * len(policies))
    for part in sorted(parts):
        info = parts[part]
        tp = sum(t for _, t, _, _ in info["sets"])
        fp = sum(f for _, _, f, _ in info["sets"])
        if tp + fp == 0:
            continue
        lo, hi = wilson(tp, tp + fp)
        per = ", ".join(f"{s} {t}/{f} ({c})" for s, t, f, c in info["sets"] if t + f)
        states = " | ".join("default" if info[p] else "preview" for p in policies)
        print(f"| {part} | {per} | {tp}/{fp} {tp / (tp + fp):.0%} [{lo:.0%}-{hi:.0%}] | {states} |")
    cases = recall_findings()
    print()
    for policy in policies:
        found = sum(
            any(in_default(code, conf, parts, policy) for code, conf in hits)
            for hits in cases.values()
        )
        print(f"{policy}: default recall {found} of {len(cases)} recall cases")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
