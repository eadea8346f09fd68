"""Precision of jaxlint on real JAX libraries: findings per rule and per 100k lines.

The libraries are found by path in a site-packages folder (their `*.dist-info/RECORD`
lists the installed files); they are never imported. Install them in a separate
environment so the project's own stays clean:

    python3 -m venv /tmp/realcode-venv
    /tmp/realcode-venv/bin/pip install flax optax equinox chex dm-haiku numpyro diffrax
    .venv/bin/python benchmarks/realcode.py --site-packages /tmp/realcode-venv/lib/python3.11/site-packages

Every file is linted in-process with `jaxlint.files.driver.lint_file` and the default settings
(default rule selection, no project configuration). The summary goes to stdout and the
full result (figures plus every finding) to a JSON file. `docs/precision.md` reviews the
findings of the tracing, PRNG and mutation families (JAX1xx, JAX2xx, JAX5xx).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import sys
import sysconfig
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from jaxlint.core.config import Settings  # noqa: E402
from jaxlint.engine import LintOptions  # noqa: E402
from jaxlint.files.driver import lint_file  # noqa: E402

DISTRIBUTIONS = ("flax", "optax", "equinox", "chex", "dm-haiku", "numpyro", "diffrax")
# the families whose budget is at most TARGET findings per 100k lines (JAX205 is opt-in)
TARGET_PREFIXES = ("JAX1", "JAX2", "JAX5")
TARGET_EXEMPT = ("JAX205",)
TARGET = 2.0


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def default_site_packages() -> Path:
    return Path(sysconfig.get_paths()["purelib"])


def dist_info(site: Path, dist: str) -> Path | None:
    want = normalize(dist)
    for entry in sorted(site.iterdir()):
        if entry.name.endswith(".dist-info") and entry.is_dir():
            name = entry.name[: -len(".dist-info")].rsplit("-", 1)[0]
            if normalize(name) == want:
                return entry
    return None


def python_files(site: Path, dist: str) -> list[Path]:
    """The installed `.py` files of one distribution, from its RECORD (sorted, unique)."""
    info = dist_info(site, dist)
    if info is None:
        raise FileNotFoundError(f"{dist} is not installed in {site}")
    record = info / "RECORD"
    out: set[Path] = set()
    with open(record, newline="", encoding="utf-8") as fh:
        for row in csv.reader(fh):
            if not row or not row[0].endswith(".py"):
                continue
            path = (site / row[0]).resolve()
            if path.is_file() and site.resolve() in path.parents:
                out.add(path)
    return sorted(out)


def count_lines(path: Path) -> int:
    with open(path, "rb") as fh:
        return sum(1 for _ in fh)


def in_target(code: str) -> bool:
    return code.startswith(TARGET_PREFIXES) and code not in TARGET_EXEMPT


def is_test_file(rel: str) -> bool:
    """Test code shipped in the wheels (`*_test.py`, `test_*.py`, `tests/`, `conftest.py`)."""
    parts = Path(rel).parts
    name = parts[-1]
    return (
        name.endswith("_test.py")
        or name.startswith("test_")
        or name == "conftest.py"
        or any(p in ("tests", "test", "testing") for p in parts[:-1])
    )


def summarize(files: int, lines: int, per_rule: Counter) -> dict:
    per100k = {c: round(n * 100_000 / max(lines, 1), 2) for c, n in sorted(per_rule.items())}
    target = sum(n for c, n in per_rule.items() if in_target(c))
    worst = max((v for c, v in per100k.items() if in_target(c)), default=0.0)
    return {
        "files": files,
        "lines": lines,
        "per_rule": dict(sorted(per_rule.items())),
        "per_100k_lines": per100k,
        "target_findings": target,
        "target_per_100k_lines": round(target * 100_000 / max(lines, 1), 2),
        "target_worst_rule_per_100k_lines": worst,
    }


def run(site: Path, dists: Iterable[str], codes: frozenset[str] | None = None) -> dict:
    options = LintOptions(settings=Settings(), codes=codes)
    result: dict = {
        "site_packages": str(site),
        "rules": sorted(r.code for r in options.selected()),
        "packages": {},
        "findings": [],
    }
    totals = {k: [0, 0, Counter()] for k in ("all", "library", "tests")}
    started, cpu = time.perf_counter(), time.process_time()
    for dist in dists:
        files = python_files(site, dist)
        lines = 0
        pkg_rules: Counter[str] = Counter()
        for path in files:
            n = count_lines(path)
            lines += n
            rel = os.path.relpath(path, site)
            subset = "tests" if is_test_file(rel) else "library"
            for key in ("all", subset):
                totals[key][0] += 1
                totals[key][1] += n
            for d in lint_file(str(path), options, display=rel):
                pkg_rules[d.code] += 1
                totals["all"][2][d.code] += 1
                totals[subset][2][d.code] += 1
                result["findings"].append(
                    {
                        "package": dist,
                        "path": rel,
                        "test_code": subset == "tests",
                        "line": d.line,
                        "column": d.col,
                        "code": d.code,
                        "message": d.message,
                    }
                )
        result["packages"][dist] = {
            "files": len(files),
            "lines": lines,
            "findings": dict(sorted(pkg_rules.items())),
        }
    result["seconds"] = round(time.perf_counter() - started, 2)
    result["cpu_seconds"] = round(time.process_time() - cpu, 2)
    result["subsets"] = {k: summarize(*v) for k, v in totals.items()}
    everything = result["subsets"]["all"]
    result["files"], result["lines"] = everything["files"], everything["lines"]
    result["per_rule"] = everything["per_rule"]
    result["per_100k_lines"] = everything["per_100k_lines"]
    result["target"] = {
        "families": list(TARGET_PREFIXES),
        "exempt": list(TARGET_EXEMPT),
        "max_per_100k_lines": TARGET,
        "met_all_code": everything["target_per_100k_lines"] <= TARGET,
        "met_library_code": result["subsets"]["library"]["target_per_100k_lines"] <= TARGET,
    }
    return result


def render(result: dict, show: bool) -> str:
    subsets = result["subsets"]
    out = [
        f"site-packages: {result['site_packages']}",
        f"{result['files']} files, {result['lines']} lines "
        f"(library {subsets['library']['lines']}, tests {subsets['tests']['lines']}), "
        f"{result['seconds']} s ({result['cpu_seconds']} CPU-s)",
        "",
        f"{'package':<12}{'files':>7}{'lines':>9}  findings",
    ]
    for dist, info in result["packages"].items():
        found = ", ".join(f"{c}:{n}" for c, n in info["findings"].items()) or "-"
        out.append(f"{dist:<12}{info['files']:>7}{info['lines']:>9}  {found}")
    out += [
        "",
        f"{'rule':<8}{'all':>6}{'/100k':>8}{'library':>9}{'/100k':>8}{'tests':>7}{'/100k':>8}",
    ]
    for code in result["per_rule"]:
        row = f"{code:<8}"
        for key, width in (("all", 6), ("library", 9), ("tests", 7)):
            sub = subsets[key]
            row += f"{sub['per_rule'].get(code, 0):>{width}}{sub['per_100k_lines'].get(code, 0.0):>8.2f}"
        out.append(row + ("  (target family)" if in_target(code) else ""))
    if not result["per_rule"]:
        out.append("(no findings)")
    out.append("")
    for key in ("all", "library", "tests"):
        sub = subsets[key]
        verdict = "met" if sub["target_per_100k_lines"] <= TARGET else "not met"
        out.append(
            f"JAX1xx+JAX2xx+JAX5xx (without JAX205), {key} code: {sub['target_findings']} "
            f"findings in {sub['lines']} lines = {sub['target_per_100k_lines']:.2f} per 100k "
            f"(target <= {TARGET}: {verdict})"
        )
    if show:
        out.append("")
        for f in result["findings"]:
            out.append(f"{f['path']}:{f['line']}:{f['column'] + 1}: {f['code']} {f['message']}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--site-packages",
        type=Path,
        default=None,
        help="folder holding the installed libraries (default: this interpreter's site-packages)",
    )
    parser.add_argument(
        "--packages",
        nargs="+",
        default=list(DISTRIBUTIONS),
        help="distribution names to lint (default: %(default)s)",
    )
    parser.add_argument(
        "--json",
        type=Path,
        default=Path("realcode.json"),
        help="where to write the full result (default: %(default)s)",
    )
    parser.add_argument(
        "--select", nargs="+", default=None, help="rule codes (default: the default selection)"
    )
    parser.add_argument("--show", action="store_true", help="print every finding")
    args = parser.parse_args(argv)
    site = (args.site_packages or default_site_packages()).resolve()
    codes = frozenset(args.select) if args.select else None
    try:
        result = run(site, args.packages, codes)
    except FileNotFoundError as exc:
        print(f"realcode: {exc}", file=sys.stderr)
        return 2
    args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(render(result, args.show))
    print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
