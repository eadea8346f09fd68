"""Recall of jaxlint on public, real-world JAX sharp bits, and its false alarms.

    python benchmarks/recall.py [--json OUT] [--jaxlint "python -m jaxlint"]

The corpus is ``benchmarks/recall/cases/``: every case is a bad program (a sharp bit a
user reported in a public issue or Q&A page, reduced to a runnable program that keeps the
user's helpers and classes) and its fixed twin; ``benchmarks/recall/verify_cases.py`` shows
with real JAX that the bad one has the sharp bit and the good one does not
(``verified.json``). This script does not need JAX: it runs
``jaxlint check --format json`` over the programs twice, once with the default rule
selection (recall is measured with it, issue 23) and once with ``--preview`` (the rules and
confidence levels of ``jaxlint.core.codes.PREVIEW`` added), both with
``benchmarks/recall/jaxlint.toml`` (target JAX 0.10, the version the cases were verified
with), and reports for each:

- recall: bad programs with at least one finding of an expected code (the ``# expect:``
  header), per family and overall; a multi-module case (a folder) is linted as a folder;
- false alarms: findings of any code on the good programs (each one counts), and the
  number of good programs with at least one.

``--json`` writes per-case results (detected or missed, the codes found) of both runs,
``{"default": ..., "preview": ...}``, for the pinned lists in ``tests/test_recall_corpus.py``.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE / "recall"))
from cases import Case, load_cases  # noqa: E402

CONFIG = HERE / "recall" / "jaxlint.toml"


def lint(
    paths: list[Path], jaxlint: list[str], preview: bool = False
) -> dict[Path, list[dict[str, object]]]:
    """Findings per linted path (a folder's findings are gathered under the folder)."""
    cmd = [*jaxlint, "check", "--format", "json", "--exit-zero", "--no-cache"]
    cmd += ["--preview"] if preview else ["--no-preview"]
    cmd += ["--config", str(CONFIG), *map(str, paths)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"jaxlint failed ({proc.returncode}):\n{proc.stderr}")
    by_path: dict[Path, list[dict[str, object]]] = {p.resolve(): [] for p in paths}
    for finding in json.loads(proc.stdout):
        file = Path(str(finding["filename"])).resolve()
        owner = next((p for p in by_path if p == file or p in file.parents), None)
        if owner is not None:
            by_path[owner].append(finding)
    return by_path


def evaluate(
    cases: list[Case], jaxlint: list[str], preview: bool = False
) -> dict[str, dict[str, object]]:
    """Per case: the codes found on the bad and the good program, detected or not, with the
    default selection or (`preview`) with the preview rules added."""
    paths = [p for case in cases for p in (case.bad, case.good)]
    found = lint(paths, jaxlint, preview)
    results = {}
    for case in cases:
        bad_codes = sorted({str(f["code"]) for f in found[case.bad.resolve()]})
        good = found[case.good.resolve()]
        results[case.name] = {
            "family": case.family,
            "multi_module": case.multi_module,
            "expect": list(case.expect),
            "detected": any(code in case.expect for code in bad_codes),
            "bad_codes": bad_codes,
            "good_findings": [f"{f['code']}:{f['location']['row']}" for f in good],  # type: ignore[index]
        }
    return results


def report(results: dict[str, dict[str, object]]) -> str:
    """The per-family table and the totals, as text."""
    fam: dict[str, list[dict[str, object]]] = defaultdict(list)
    for r in results.values():
        fam[str(r["family"])].append(r)
    lines = [f"{'family':16} {'recall':>9} {'false alarms':>13}  missed"]
    for name in sorted(fam):
        rows = fam[name]
        hit = sum(bool(r["detected"]) for r in rows)
        fa = sum(len(r["good_findings"]) for r in rows)  # type: ignore[arg-type]
        missed = [n for n, r in results.items() if r["family"] == name and not r["detected"]]
        lines.append(f"{name:16} {hit:>4}/{len(rows):<4} {fa:>13}  {', '.join(missed)}")
    total = len(results)
    hit = sum(bool(r["detected"]) for r in results.values())
    fa = sum(len(r["good_findings"]) for r in results.values())  # type: ignore[arg-type]
    fa_progs = sum(bool(r["good_findings"]) for r in results.values())
    single = [r for r in results.values() if not r["multi_module"]]
    hit1 = sum(bool(r["detected"]) for r in single)
    lines.append(
        f"\nrecall {hit}/{total} = {hit / total:.0%}"
        f" (single-module {hit1}/{len(single)} = {hit1 / len(single):.0%});"
        f" false alarms {fa} on {fa_progs}/{total} good programs"
    )
    for name, r in results.items():
        if r["good_findings"]:
            lines.append(f"  false alarm: {name}_good {r['good_findings']}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="write per-case results here")
    parser.add_argument(
        "--jaxlint",
        default=f"{shlex.quote(sys.executable)} -m jaxlint",
        help="command that runs jaxlint (default: this Python's -m jaxlint)",
    )
    args = parser.parse_args()
    cases = load_cases()
    runs = {
        mode: evaluate(cases, shlex.split(args.jaxlint), preview=mode == "preview")
        for mode in ("default", "preview")
    }
    print("default selection (the measured recall):")
    print(report(runs["default"]))
    print("\nwith --preview:")
    print(report(runs["preview"]))
    only = sorted(
        n
        for n, r in runs["preview"].items()
        if r["detected"] and not runs["default"][n]["detected"]
    )
    print(f"\nfound only with --preview ({len(only)}): {', '.join(only) or '-'}")
    if args.json:
        args.json.write_text(json.dumps(runs, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
