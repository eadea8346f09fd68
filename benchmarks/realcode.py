"""Precision of jaxlint on real JAX libraries: findings per rule and per 100k lines.

The libraries are found by path in a site-packages folder (their `*.dist-info/RECORD`
lists the installed files); they are never imported. Install them in a separate
environment so the project's own stays clean:

    python3 -m venv /tmp/realcode-venv
    /tmp/realcode-venv/bin/pip install flax optax equinox chex dm-haiku numpyro diffrax
    .venv/bin/python benchmarks/realcode.py --site-packages /tmp/realcode-venv/lib/python3.11/site-packages

Every file is linted in-process with `jaxlint.engine.lint_file` and the default settings
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

from jaxlint.config import Settings  # noqa: E402
from jaxlint.engine import LintOptions, lint_file  # noqa: E402

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


def run(site: Path, dists: Iterable[str], codes: frozenset[str] | None = None) -> dict:
    options = LintOptions(settings=Settings(), codes=codes)
    result: dict = {
        "site_packages": str(site),
        "rules": sorted(r.code for r in options.selected()),
        "packages": {},
        "findings": [],
    }
    total_files = total_lines = 0
    per_rule: Counter[str] = Counter()
    started = time.perf_counter()
    for dist in dists:
        files = python_files(site, dist)
        lines = 0
        pkg_rules: Counter[str] = Counter()
        for path in files:
            lines += count_lines(path)
            rel = os.path.relpath(path, site)
            for d in lint_file(str(path), options, display=rel):
                per_rule[d.code] += 1
                pkg_rules[d.code] += 1
                result["findings"].append(
                    {
                        "package": dist,
                        "path": rel,
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
        total_files += len(files)
        total_lines += lines
    result["seconds"] = round(time.perf_counter() - started, 2)
    result["files"] = total_files
    result["lines"] = total_lines
    per100k = {c: round(n * 100_000 / max(total_lines, 1), 2) for c, n in sorted(per_rule.items())}
    result["per_rule"] = dict(sorted(per_rule.items()))
    result["per_100k_lines"] = per100k
    target = [c for c in per_rule if in_target(c)]
    worst = max((per100k[c] for c in target), default=0.0)
    result["target"] = {
        "families": list(TARGET_PREFIXES),
        "exempt": list(TARGET_EXEMPT),
        "max_per_100k_per_rule": TARGET,
        "worst_rule_per_100k": worst,
        "met": worst <= TARGET,
    }
    return result


def render(result: dict, show: bool) -> str:
    out = [
        f"site-packages: {result['site_packages']}",
        f"{result['files']} files, {result['lines']} lines, {result['seconds']} s",
        "",
        f"{'package':<12}{'files':>7}{'lines':>9}  findings",
    ]
    for dist, info in result["packages"].items():
        found = ", ".join(f"{c}:{n}" for c, n in info["findings"].items()) or "-"
        out.append(f"{dist:<12}{info['files']:>7}{info['lines']:>9}  {found}")
    out += ["", f"{'rule':<8}{'findings':>9}{'per 100k':>10}"]
    for code, n in result["per_rule"].items():
        mark = "  *" if in_target(code) and result["per_100k_lines"][code] > TARGET else ""
        out.append(f"{code:<8}{n:>9}{result['per_100k_lines'][code]:>10.2f}{mark}")
    if not result["per_rule"]:
        out.append("(no findings)")
    t = result["target"]
    out += [
        "",
        f"target: JAX1xx/JAX2xx (except JAX205)/JAX5xx <= {TARGET} per 100k lines per rule: "
        + ("met" if t["met"] else f"NOT met (worst {t['worst_rule_per_100k']})"),
    ]
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
