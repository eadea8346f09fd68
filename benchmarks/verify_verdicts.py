"""Verdicts of `jaxlint verify --capture-main` per rule family, scored against marked sharp bits.

    python benchmarks/verify_verdicts.py [FILES...] [--plain] [--preview] [--json OUT]
        [--set heldout|cases|all]

Case sets (default `all`):

- `heldout`: benchmarks/verify_cases/heldout/*.py, small training / benchmark scripts written for
  this benchmark (a `__main__` block or a module-level driver), each with a true sharp bit that
  was checked by running it with JAX;
- `cases`: benchmarks/verify_cases/*.py, the wrong verdicts of issue 25 (a run masked by another
  finding, module-level keys, a host coin flip, two reuses where the first stops the run, a
  returned consumed key, one key at two shapes, a finding in the `__main__` block, a later
  recorded call that reaches the line), and tests/runtime/capture_programs/*.py.

The truth is written on the flagged line: `# sharp: JAX110` marks a true finding that the
program's own run reaches, `# unrun: JAX201` a true finding in code the program never runs (its
right verdict is could-not-run). A file without any marker (the capture programs, whose verdicts
tests/runtime/test_capture.py pins) counts every finding as a true one that runs.

Per family (the code's first digits: JAX1 tracing, JAX2 PRNG, JAX3 multi-device, JAX4 compile,
JAX5 side effects, JAX6 timing, JAX7 dtypes) it prints the true findings the linter reported,
how many were confirmed, the marked sharp bits the linter missed (not verify's to confirm), and
the wrong verdicts: `confirmed` on an unmarked finding (a static false positive), `not-reproduced`
on a true finding the run reaches, anything but `could-not-run` on a finding in code never run.
The time is the wall and CPU time (this process and its children) of `verify_file` (lint,
capture, verification) per file; seconds per confirmed finding = total / confirmed. `--plain`
verifies without capture.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import sys
import time
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

MARK = re.compile(r"#\s*(sharp|unrun):\s*((?:JAX\d{3}[ ,]*)+)")


def case_files(which: str) -> list[str]:
    heldout = sorted(glob.glob(os.path.join(ROOT, "benchmarks", "verify_cases", "heldout", "*.py")))
    cases = sorted(
        glob.glob(os.path.join(ROOT, "benchmarks", "verify_cases", "*.py"))
        + glob.glob(os.path.join(ROOT, "tests", "runtime", "capture_programs", "*.py"))
    )
    return {"heldout": heldout, "cases": cases, "all": heldout + cases}[which]


def marks(path: str) -> dict[tuple[int, str], str] | None:
    """{(line, code): 'sharp' | 'unrun'} from the file's markers; None when it has none."""
    out: dict[tuple[int, str], str] = {}
    with open(path, encoding="utf-8") as handle:
        for number, text in enumerate(handle, 1):
            found = MARK.search(text)
            if found:
                for code in re.findall(r"JAX\d{3}", found.group(2)):
                    out[(number, code)] = found.group(1)
    return out or None


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (the sandbox and capture
    runs): on a shared machine the wall time mostly measures the other jobs."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def family(code: str) -> str:
    return code[:4] + "x"


def score(path: str, report: dict, truth: dict | None, rows: list, tally: dict) -> None:
    name = os.path.relpath(path, ROOT)
    seen = set()
    for f in report["findings"]:
        key = (f["line"], f["code"])
        seen.add(key)
        kind = "sharp" if truth is None else truth.get(key, "fp")
        fam = family(f["code"])
        verdict = f["verdict"]
        wrong = (
            (kind == "fp" and verdict == "confirmed")
            or (kind == "sharp" and verdict == "not-reproduced")
            or (kind == "unrun" and verdict != "could-not-run")
        )
        tally[kind][fam] += 1
        if kind == "sharp" and verdict == "confirmed":
            tally["confirmed"][fam] += 1
        if wrong:
            tally["wrong"][fam] += 1
        rows.append(
            {
                "file": name,
                "line": f["line"],
                "code": f["code"],
                "truth": kind,
                "verdict": verdict,
                "wrong": wrong,
                "reason": f["reason"],
                "seconds": f.get("seconds"),
            }
        )
    for (line, code), kind in sorted((truth or {}).items()):
        if (line, code) not in seen:
            tally["missed"][family(code)] += 1
            rows.append(
                {
                    "file": name,
                    "line": line,
                    "code": code,
                    "truth": kind,
                    "verdict": "not-linted",
                    "wrong": False,
                    "reason": "the linter reported no finding here",
                    "seconds": None,
                }
            )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("files", nargs="*")
    parser.add_argument("--plain", action="store_true", help="no --capture-main")
    parser.add_argument(
        "--preview",
        action="store_true",
        help="verify the findings of the rules in preview too (JAX601 and others moved there "
        "after the first measurement; the figures in docs/verify.md use it)",
    )
    parser.add_argument("--set", default="all", choices=("heldout", "cases", "all"))
    parser.add_argument("--json", default=None, metavar="OUT", help="write every row here")
    args = parser.parse_args()
    from jaxlint.verify.driver import verify_file

    files = args.files or case_files(args.set)
    tally: dict[str, Counter[str]] = {
        k: Counter() for k in ("sharp", "unrun", "fp", "confirmed", "wrong", "missed")
    }
    rows: list[dict] = []
    per_file: dict[str, float] = {}
    per_file_cpu: dict[str, float] = {}
    started = time.perf_counter()
    cpu_started = _cpu()
    for path in files:
        t0, c0 = time.perf_counter(), _cpu()
        report = verify_file(path, capture_main=not args.plain, preview=args.preview or None)
        per_file[os.path.relpath(path, ROOT)] = round(time.perf_counter() - t0, 2)
        per_file_cpu[os.path.relpath(path, ROOT)] = round(_cpu() - c0, 2)
        before = len(rows)
        score(path, report, marks(path), rows, tally)
        for row in rows[before:]:
            flag = "WRONG " if row["wrong"] else ""
            print(
                f"{row['file']}:{row['line']} {row['code']} [{row['truth']}] {flag}"
                f"{row['verdict']}: {row['reason'][:120]}",
                flush=True,
            )
    seconds = time.perf_counter() - started
    cpu = _cpu() - cpu_started
    print()
    print("family  confirmed/true  unrun  static-FP  wrong  missed-by-lint")
    for fam in sorted(set().union(*tally.values())):
        print(
            f"{fam:6}  {tally['confirmed'][fam]:>4}/{tally['sharp'][fam]:<4}      "
            f"{tally['unrun'][fam]:>3}  {tally['fp'][fam]:>9}  {tally['wrong'][fam]:>5}  "
            f"{tally['missed'][fam]:>5}"
        )
    true_n, conf = sum(tally["sharp"].values()), sum(tally["confirmed"].values())
    summary = {
        "files": len(files),
        "true": true_n,
        "confirmed": conf,
        "rate": round(conf / max(true_n, 1), 3),
        "wrong": sum(tally["wrong"].values()),
        "missed_by_lint": sum(tally["missed"].values()),
        "seconds": round(seconds, 1),
        "seconds_per_confirmed": round(seconds / max(conf, 1), 2),
        "cpu_seconds": round(cpu, 1),
        "cpu_seconds_per_confirmed": round(cpu / max(conf, 1), 2),
    }
    print(
        f"all     {conf}/{true_n} ({100 * summary['rate']:.0f}%), {summary['wrong']} wrong, "
        f"{len(files)} files, {seconds:.1f} s wall ({summary['seconds_per_confirmed']:.2f} s per "
        f"confirmed finding), {cpu:.1f} s CPU ({summary['cpu_seconds_per_confirmed']:.2f} s per "
        "confirmed finding)"
    )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(
                {
                    "summary": summary,
                    "families": {k: dict(v) for k, v in tally.items()},
                    "per_file_seconds": per_file,
                    "per_file_cpu_seconds": per_file_cpu,
                    "rows": rows,
                },
                handle,
                indent=1,
            )


if __name__ == "__main__":
    main()
