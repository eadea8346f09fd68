"""Verdicts of `jaxlint verify --capture-main` per rule family, on programs written for them.

    python benchmarks/verify_verdicts.py [FILES...] [--plain]

Default files: benchmarks/verify_cases/*.py (cases of the wrong verdicts of issue 25: a run
masked by another finding, module-level keys, a host coin flip, two reuses where the first
stops the run, a returned consumed key, one key at two shapes, a finding in the __main__ block,
a later recorded call that reaches the line) and tests/runtime/capture_programs/*.py. Prints,
per family (the code's first two digits: JAX1 tracing, JAX2 PRNG, JAX4 compile, JAX6 timing...),
confirmed / findings, and seconds per confirmed finding. `--plain` verifies without capture.
"""

from __future__ import annotations

import argparse
import glob
import os
import sys
import time
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("files", nargs="*")
    parser.add_argument("--plain", action="store_true", help="no --capture-main")
    args = parser.parse_args()
    from jaxlint.verify.driver import verify_file

    files = args.files or sorted(
        glob.glob(os.path.join(ROOT, "benchmarks", "verify_cases", "*.py"))
        + glob.glob(os.path.join(ROOT, "tests", "runtime", "capture_programs", "*.py"))
    )
    total: Counter[str] = Counter()
    confirmed: Counter[str] = Counter()
    started = time.perf_counter()
    for path in files:
        report = verify_file(path, capture_main=not args.plain)
        for f in report["findings"]:
            family = f["code"][:4]
            total[family] += 1
            confirmed[family] += f["verdict"] == "confirmed"
            print(
                f"{os.path.basename(path)}:{f['line']} {f['code']} {f['verdict']}: {f['reason'][:110]}"
            )
    seconds = time.perf_counter() - started
    print()
    for family in sorted(total):
        print(f"{family}x  {confirmed[family]}/{total[family]}")
    n, c = sum(total.values()), sum(confirmed.values())
    print(
        f"all    {c}/{n} ({100 * c / max(n, 1):.0f}%), {seconds:.1f} s, "
        f"{seconds / max(c, 1):.2f} s per confirmed finding"
    )


if __name__ == "__main__":
    main()
