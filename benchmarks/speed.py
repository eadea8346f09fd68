"""Speed and memory of `jaxlint check` next to flake8, ruff and the libcst linters.

One session, one corpus (the installed sources of jax, flax, optax and equinox, ~930 files,
416k lines), the tools run as subprocesses in alternation (round i runs every tool once, the
order rotating between rounds) so that load from other processes hits them alike; medians
and ratios are reported, not single times. Install the corpus in a separate environment,
never in the project's:

    python3 -m venv /tmp/speed-venv
    /tmp/speed-venv/bin/pip install jax flax optax equinox flake8
    .venv/bin/python benchmarks/speed.py --site-packages /tmp/speed-venv/lib/python3.11/site-packages

Tools (each gets the same explicit list of files; stdout goes to a file, not a terminal):

- `jaxlint check --no-cache` (cold) and `jaxlint check --cache-dir D` (warm: D primed by one
  untimed run), both with `--jobs J` (default: the CPUs this process may use);
- `flake8 --jobs J` with its default plugins only (pyflakes, pycodestyle, mccabe): by
  default the flake8 of the corpus environment, refused if jaxlint's or another plugin is
  registered in it (`--flake8` to choose another);
- `ruff check --select ALL --no-cache --isolated`;
- `torchfix` and `fixit lint` (libcst peers) when found (`--peers-bin`, default the
  corpus environment's bin folder, then PATH), run `--peer-runs` times (default 1: Fixit
  takes minutes).

jaxlint runs from a snapshot of `jaxlint/` copied at start (`--no-snapshot` to use the
installed one), so that edits made to the checkout during the session neither change the
code under test nor invalidate the warm cache (its key includes a hash of jaxlint's sources).

Per run: wall time, user+system CPU of the process tree and its peak RSS, from `os.wait4`
(the peak of the largest single process: a pool's workers are separate processes; with
`--tree-rss` a sampler also records the peak of the summed RSS of the whole tree).

Extras: `--scale 1,2,4` lints 1x, 2x and 4x the corpus (hard links or copies under distinct
paths; jaxlint dedupes by real path, so symlinks would not count); `--per-file` times every
file in-process (serially) and reports the cost by file size plus the slowest files;
`--check-prefilter` lints the corpus in-process with and without the prefilter and checks
that the results are identical.

The table goes to stdout, everything to `--json` (default `speed.json`).
"""

from __future__ import annotations

import argparse
import compileall
import csv
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DISTRIBUTIONS = ("jax", "flax", "optax", "equinox")
OK_CODES = {0, 1}  # findings are not failures


# -- corpus -------------------------------------------------------------------------------------


def _normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def python_files(site: Path, dist: str) -> list[Path]:
    """The installed `.py` files of one distribution, from its RECORD (sorted, unique)."""
    want = _normalize(dist)
    for entry in sorted(site.iterdir()):
        if entry.name.endswith(".dist-info") and entry.is_dir():
            if _normalize(entry.name[: -len(".dist-info")].rsplit("-", 1)[0]) == want:
                break
    else:
        raise SystemExit(f"speed.py: {dist} is not installed in {site}")
    out: set[Path] = set()
    with open(entry / "RECORD", newline="", encoding="utf-8") as fh:
        for row in csv.reader(fh):
            if row and row[0].endswith(".py"):
                path = (site / row[0]).resolve()
                if path.is_file() and site.resolve() in path.parents:
                    out.add(path)
    return sorted(out)


def corpus(site: Path, dists: list[str]) -> tuple[list[str], dict]:
    files: list[str] = []
    stats: dict = {"packages": {}}
    for dist in dists:
        found = python_files(site, dist)
        lines = size = 0
        for p in found:
            data = p.read_bytes()
            size += len(data)
            lines += data.count(b"\n")
        stats["packages"][dist] = {"files": len(found), "lines": lines, "bytes": size}
        files.extend(str(p) for p in found)
    stats["files"] = len(files)
    stats["lines"] = sum(p["lines"] for p in stats["packages"].values())
    stats["bytes"] = sum(p["bytes"] for p in stats["packages"].values())
    return files, stats


def replicate(files: list[str], site: Path, times: int, where: Path) -> list[str]:
    """`times` copies of the corpus under distinct paths (hard links where possible)."""
    out = list(files)
    for k in range(1, times):
        for f in files:
            dst = where / f"copy{k}" / os.path.relpath(f, site)
            if not dst.exists():
                dst.parent.mkdir(parents=True, exist_ok=True)
                try:
                    os.link(f, dst)
                except OSError:
                    shutil.copyfile(f, dst)
            out.append(str(dst))
    return out


# -- running ------------------------------------------------------------------------------------


class TreeRss:
    """Peak of the summed RSS of a process and its descendants, sampled every 50 ms."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak_kb = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _tree(self) -> list[int]:
        pids, todo = [], [self.pid]
        while todo:
            pid = todo.pop()
            pids.append(pid)
            try:
                with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as fh:
                    todo.extend(int(c) for c in fh.read().split())
            except OSError:
                pass
        return pids

    def _run(self) -> None:
        while not self._stop.wait(0.05):
            total = 0
            for pid in self._tree():
                try:
                    with open(f"/proc/{pid}/status", encoding="ascii") as fh:
                        for line in fh:
                            if line.startswith("VmRSS:"):
                                total += int(line.split()[1])
                                break
                except (OSError, ValueError):
                    pass
            self.peak_kb = max(self.peak_kb, total)

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        return self.peak_kb


def run_once(cmd: list[str], env: dict, cwd: Path, out_path: Path, tree_rss: bool) -> dict:
    with open(out_path, "wb") as out, open(str(out_path) + ".err", "wb") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env, cwd=cwd)
        sampler = TreeRss(proc.pid) if tree_rss else None
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
    result = {
        "wall_s": round(wall, 3),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 3),
        "max_rss_mb": round(usage.ru_maxrss / 1024, 1),  # Linux: KiB
        "rc": proc.returncode,
    }
    if sampler is not None:
        result["tree_rss_mb"] = round(sampler.stop() / 1024, 1)
    if proc.returncode not in OK_CODES:
        tail = Path(str(out_path) + ".err").read_text(errors="replace")[-2000:]
        raise SystemExit(f"speed.py: {cmd[:3]} exited {proc.returncode}:\n{tail}")
    return result


def _version(cmd: list[str], env: dict | None = None) -> str:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    return (out.stdout or out.stderr).strip().splitlines()[0] if (out.stdout or out.stderr) else "?"


def _find_bin(name: str, bins: list[Path]) -> str | None:
    for b in bins:
        cand = b / name
        if cand.is_file() and os.access(cand, os.X_OK):
            return str(cand)
    return shutil.which(name)


def _flake8_plugins(flake8: str) -> list[str]:
    """Plugins other than flake8's defaults, from `flake8 --version`."""
    try:
        out = subprocess.run([flake8, "--version"], capture_output=True, text=True, timeout=120)
        text = out.stdout
    except (OSError, subprocess.TimeoutExpired):
        return []
    m = re.search(r"\((.*)\)", text.replace("\n", " "))
    names = [p.split(":")[0].strip() for p in m.group(1).split(",")] if m else []
    return [n for n in names if n not in ("mccabe", "pycodestyle", "pyflakes")]


# -- in-process extras ------------------------------------------------------------------------


def per_file(files: list[str]) -> dict:
    from jaxlint.core.config import Settings
    from jaxlint.engine import LintOptions
    from jaxlint.files.driver import lint_file

    options = LintOptions(settings=Settings())
    rows = []
    for f in files:
        with open(f, "rb") as fh:
            lines = fh.read().count(b"\n")
        t = time.process_time()
        lint_file(f, options)
        rows.append((time.process_time() - t, lines, f))
    buckets = [(0, 100), (100, 500), (500, 1000), (1000, 2000), (2000, 5000), (5000, 10**9)]
    table = []
    for lo, hi in buckets:
        sel = [r for r in rows if lo <= r[1] < hi]
        if not sel:
            continue
        cpu = sum(r[0] for r in sel)
        lines = sum(r[1] for r in sel)
        table.append(
            {
                "lines": f"{lo}-{hi if hi < 10**9 else ''}",
                "files": len(sel),
                "total_lines": lines,
                "cpu_s": round(cpu, 2),
                "ms_per_1k_lines": round(1e6 * cpu / max(lines, 1), 2),
                "median_ms_per_file": round(1000 * statistics.median(r[0] for r in sel), 1),
            }
        )
    rows.sort(reverse=True)
    return {
        "cpu_s": round(sum(r[0] for r in rows), 2),
        "by_size": table,
        "slowest": [{"file": r[2], "lines": r[1], "cpu_s": round(r[0], 2)} for r in rows[:10]],
    }


def check_prefilter(files: list[str]) -> dict:
    from jaxlint import prefilter
    from jaxlint.core.config import Settings
    from jaxlint.engine import LintOptions
    from jaxlint.files.driver import lint_file

    options = LintOptions(settings=Settings(select=("ALL",), preview=True))  # every rule
    results, cpu = {}, {}
    for disabled in (True, False):
        prefilter.DISABLED = disabled
        t = time.process_time()
        results[disabled] = [lint_file(f, options) for f in files]
        cpu["without" if disabled else "with"] = round(time.process_time() - t, 2)
    prefilter.DISABLED = False
    differ = [f for f, a, b in zip(files, results[True], results[False]) if a != b]
    return {
        "identical": not differ,
        "differing_files": differ[:20],
        "cpu_s": cpu,
        "findings": sum(map(len, results[False])),
    }


# -- main -----------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--site-packages", type=Path, default=None)
    p.add_argument("--packages", nargs="+", default=list(DISTRIBUTIONS))
    p.add_argument("--runs", type=int, default=5, help="alternating rounds (default 5)")
    p.add_argument("--jobs", type=int, default=None, help="for jaxlint and flake8")
    p.add_argument("--tools", default="jaxlint-cold,jaxlint-warm,flake8,ruff")
    p.add_argument("--flake8", default=None)
    p.add_argument("--ruff", default=None)
    p.add_argument("--peers-bin", type=Path, action="append", default=[])
    p.add_argument("--peer-runs", type=int, default=1)
    p.add_argument("--no-peers", action="store_true")
    p.add_argument("--no-snapshot", action="store_true")
    p.add_argument("--tree-rss", action="store_true")
    p.add_argument("--scale", default="", help="e.g. 1,2,4")
    p.add_argument("--scale-runs", type=int, default=3)
    p.add_argument("--per-file", action="store_true")
    p.add_argument("--check-prefilter", action="store_true")
    p.add_argument("--json", type=Path, default=Path("speed.json"))
    p.add_argument("--workdir", type=Path, default=None, help="default: a temporary folder")
    args = p.parse_args(argv)

    site = (args.site_packages or Path(sysconfig.get_paths()["purelib"])).resolve()
    files, stats = corpus(site, args.packages)
    work = args.workdir or Path(tempfile.mkdtemp(prefix="jaxlint-speed-"))
    work.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    env.pop("JAXLINT_CACHE_DIR", None)
    env.pop("JAXLINT_NO_PREFILTER", None)
    if args.no_snapshot:
        jl_env = env
    else:
        snap = work / "snapshot"
        if snap.exists():
            shutil.rmtree(snap)
        shutil.copytree(
            ROOT / "jaxlint", snap / "jaxlint", ignore=shutil.ignore_patterns("__pycache__")
        )
        # byte-compiled, as pip leaves an installed package: with PYTHONDONTWRITEBYTECODE
        # in the environment every run would otherwise compile jaxlint's ~190 modules again
        # (0.4-0.5 CPU-s, a third of a warm run, that no installed jaxlint pays)
        compileall.compile_dir(str(snap / "jaxlint"), quiet=1, workers=1)
        jl_env = dict(env, PYTHONPATH=str(snap))
        sys.path.insert(0, str(snap))  # the in-process extras use the snapshot too
    if "jaxlint" in sys.modules:  # pragma: no cover
        raise SystemExit("speed.py: jaxlint imported too early")
    import jaxlint
    from jaxlint.run.parallel import default_jobs

    jobs = args.jobs or default_jobs()
    site_bin = site.parent.parent.parent / "bin"  # <venv>/lib/pythonX.Y/site-packages
    bins = [*args.peers_bin, site_bin, Path(sys.executable).parent]
    flake8 = args.flake8 or _find_bin("flake8", [site_bin])
    ruff = args.ruff or _find_bin("ruff", [Path(sys.executable).parent, site_bin])
    jl = [sys.executable, "-m", "jaxlint", "check", "--jobs", str(jobs), "--quiet"]
    cache_dir = work / "cache"
    tools: dict[str, list[str]] = {}
    wanted = args.tools.split(",")
    if "jaxlint-cold" in wanted:
        tools["jaxlint-cold"] = [*jl, "--no-cache"]
    if "jaxlint-warm" in wanted:
        tools["jaxlint-warm"] = [*jl, "--cache-dir", str(cache_dir)]
    if "jaxlint-cold-noindex" in wanted:  # the project index's share of a cold run
        tools["jaxlint-cold-noindex"] = [*jl, "--no-cache", "--no-project-index"]
    if "flake8" in wanted and flake8:
        extra = _flake8_plugins(flake8)
        if extra:
            raise SystemExit(
                f"speed.py: {flake8} has extra plugins {extra}; use a flake8 with only its "
                "defaults (install flake8 in the corpus environment, or pass --flake8)"
            )
        tools["flake8"] = [flake8, "--jobs", str(jobs), "--exit-zero"]
    if "ruff" in wanted and ruff:
        tools["ruff"] = [
            ruff,
            "check",
            "--select",
            "ALL",
            "--no-cache",
            "--isolated",
            "--exit-zero",
        ]
    peers: dict[str, list[str]] = {}
    if not args.no_peers:
        tf = _find_bin("torchfix", bins)
        fx = _find_bin("fixit", bins)
        if tf:
            peers["torchfix"] = [tf]
        if fx:
            peers["fixit"] = [fx, "lint"]
    versions = {
        "python": sys.version.split()[0],
        "jaxlint": f"{jaxlint.__version__} ({'installed' if args.no_snapshot else 'snapshot'} {os.path.dirname(jaxlint.__file__)})",
        "flake8": _version([flake8, "--version"]).replace("\n", " ") if flake8 else None,
        "ruff": _version([ruff, "--version"]) if ruff else None,
        **{k: _version([v[0], "--version"]) for k, v in peers.items()},
    }
    env_of = {k: (jl_env if k.startswith("jaxlint") else env) for k in [*tools, *peers]}

    print(f"corpus: {stats['files']} files, {stats['lines']} lines ({', '.join(args.packages)})")
    print(f"cpus: {os.cpu_count()} (jobs={jobs}); load before: {os.getloadavg()}")
    result: dict = {
        "corpus": stats,
        "site_packages": str(site),
        "jobs": jobs,
        "cpus": os.cpu_count(),
        "machine": platform.platform(),
        "versions": versions,
        "commands": {k: v[:8] + ["<files>"] for k, v in {**tools, **peers}.items()},
        "load_before": os.getloadavg(),
    }

    if "jaxlint-warm" in tools:  # prime the cache (untimed) and check warm == cold output
        shutil.rmtree(cache_dir, ignore_errors=True)
        prime = run_once([*tools["jaxlint-warm"], *files], jl_env, work, work / "prime.out", False)
        result["prime"] = prime
        print(f"primed the cache: {prime['wall_s']} s")

    runs: dict[str, list[dict]] = {k: [] for k in tools}
    names = list(tools)
    for i in range(args.runs):
        order = names[i % len(names) :] + names[: i % len(names)]
        for name in order:
            r = run_once(
                [*tools[name], *files], env_of[name], work, work / f"{name}.{i}.out", args.tree_rss
            )
            runs[name].append(r)
            print(
                f"round {i + 1}/{args.runs} {name:<13} {r['wall_s']:>8.2f} s wall {r['cpu_s']:>8.2f} s cpu {r['max_rss_mb']:>7.1f} MB",
                flush=True,
            )
    for name, cmd in peers.items():
        runs[name] = []
        for i in range(args.peer_runs):
            r = run_once([*cmd, *files], env, work, work / f"{name}.{i}.out", args.tree_rss)
            runs[name].append(r)
            print(
                f"peer {name:<18} {r['wall_s']:>8.2f} s wall {r['cpu_s']:>8.2f} s cpu {r['max_rss_mb']:>7.1f} MB",
                flush=True,
            )
    if "jaxlint-cold" in tools and "jaxlint-warm" in tools:
        cold = (work / "jaxlint-cold.0.out").read_bytes()
        warm = (work / "jaxlint-warm.0.out").read_bytes()
        result["cold_warm_identical_output"] = cold == warm
    result["load_after"] = os.getloadavg()

    summary = {}
    for name, rs in runs.items():
        if not rs:
            continue
        s = {
            "runs": len(rs),
            "wall_s_median": round(statistics.median(r["wall_s"] for r in rs), 3),
            "wall_s_min": round(min(r["wall_s"] for r in rs), 3),
            "cpu_s_median": round(statistics.median(r["cpu_s"] for r in rs), 3),
            "max_rss_mb": max(r["max_rss_mb"] for r in rs),
        }
        if args.tree_rss:
            s["tree_rss_mb"] = max(r.get("tree_rss_mb", 0) for r in rs)
        summary[name] = s
    result["runs"] = runs
    result["summary"] = summary

    def ratio(a: str, b: str, key: str = "wall_s_median") -> float | None:
        if a in summary and b in summary and summary[b][key]:
            return round(summary[a][key] / summary[b][key], 3)
        return None

    def paired(a: str, b: str) -> float | None:
        """Median over rounds of a/b within the round (robust to load that drifts)."""
        if a not in runs or b not in runs or not runs[a] or len(runs[a]) != len(runs[b]):
            return None
        return round(
            statistics.median(x["wall_s"] / y["wall_s"] for x, y in zip(runs[a], runs[b])), 3
        )

    result["ratios"] = {
        "cold_vs_flake8": ratio("jaxlint-cold", "flake8"),
        "cold_vs_flake8_paired": paired("jaxlint-cold", "flake8"),
        "cold_vs_flake8_cpu": ratio("jaxlint-cold", "flake8", "cpu_s_median"),
        "warm_vs_ruff": ratio("jaxlint-warm", "ruff"),
        "warm_vs_ruff_paired": paired("jaxlint-warm", "ruff"),
        "cold_vs_ruff": ratio("jaxlint-cold", "ruff"),
        "warm_vs_cold": ratio("jaxlint-warm", "jaxlint-cold"),
        "cold_vs_cold_noindex_paired": paired("jaxlint-cold", "jaxlint-cold-noindex"),
        **{f"{k}_vs_cold": ratio(k, "jaxlint-cold") for k in peers},
        **{f"{k}_vs_flake8": ratio(k, "flake8") for k in peers},
    }
    result["targets"] = {
        "cold <= 1.0 x flake8": _met(result["ratios"]["cold_vs_flake8"], 1.0),
        "warm <= 3 x ruff ALL": _met(result["ratios"]["warm_vs_ruff"], 3.0),
        "peak RSS <= 500 MB": all(
            summary[k]["max_rss_mb"] <= 500 for k in summary if k.startswith("jaxlint")
        ),
    }

    if args.scale:
        result["scale"] = scaling(args, files, site, work, tools, jl_env)
    if args.per_file:
        print("per-file timing (in-process, serial) ...", flush=True)
        result["per_file"] = per_file(files)
    if args.check_prefilter:
        print("prefilter check (in-process, serial, twice) ...", flush=True)
        result["prefilter"] = check_prefilter(files)

    print()
    print(render(result))
    args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"\nwritten: {args.json}")
    return 0


def _met(value: float | None, bound: float) -> bool | None:
    return None if value is None else value <= bound


def scaling(args, files, site, work, tools, jl_env) -> list[dict]:  # noqa: ANN001
    out = []
    factors = [int(x) for x in args.scale.split(",") if x.strip()]
    for k in factors:
        paths = replicate(files, site, k, work / "scale")
        row: dict = {"factor": k, "files": len(paths)}
        for name in ("jaxlint-cold", "jaxlint-warm"):
            if name not in tools:
                continue
            if name == "jaxlint-warm":
                shutil.rmtree(work / "cache", ignore_errors=True)
                run_once([*tools[name], *paths], jl_env, work, work / "scale-prime.out", False)
            rs = [
                run_once([*tools[name], *paths], jl_env, work, work / f"scale-{name}.out", False)
                for _ in range(args.scale_runs)
            ]
            row[name] = {
                "wall_s_median": round(statistics.median(r["wall_s"] for r in rs), 3),
                "cpu_s_median": round(statistics.median(r["cpu_s"] for r in rs), 3),
                "max_rss_mb": max(r["max_rss_mb"] for r in rs),
            }
        print(f"scale {k}x: {row}", flush=True)
        out.append(row)
    base = out[0] if out else None
    for row in out:
        for name in ("jaxlint-cold", "jaxlint-warm"):
            if base and name in row and name in base:
                row[name]["vs_1x"] = round(
                    row[name]["wall_s_median"] / base[name]["wall_s_median"], 2
                )
    return out


def render(result: dict) -> str:
    s = result["summary"]
    lines = [
        f"{'tool':<14}{'runs':>5}{'wall med s':>12}{'wall min s':>12}{'cpu med s':>11}{'peak RSS MB':>13}"
        + ("{:>13}".format("tree RSS MB") if any("tree_rss_mb" in v for v in s.values()) else ""),
    ]
    for name, v in s.items():
        line = f"{name:<14}{v['runs']:>5}{v['wall_s_median']:>12.2f}{v['wall_s_min']:>12.2f}{v['cpu_s_median']:>11.2f}{v['max_rss_mb']:>13.1f}"
        if "tree_rss_mb" in v:
            line += f"{v['tree_rss_mb']:>13.1f}"
        lines.append(line)
    lines.append("")
    for k, v in result["ratios"].items():
        if v is not None:
            lines.append(f"{k:<28}{v:>8.3f}")
    lines.append("")
    for k, v in result["targets"].items():
        lines.append(f"target {k:<24} {'met' if v else ('n/a' if v is None else 'NOT met')}")
    if "cold_warm_identical_output" in result:
        lines.append(f"cold and warm output identical: {result['cold_warm_identical_output']}")
    lines.append(f"load average before/after: {result['load_before']} / {result['load_after']}")
    for row in result.get("scale", []):
        parts = [f"{row['factor']}x ({row['files']} files)"]
        for name in ("jaxlint-cold", "jaxlint-warm"):
            if name in row:
                r = row[name]
                parts.append(
                    f"{name} {r['wall_s_median']:.2f} s ({r.get('vs_1x', 1.0)}x), {r['max_rss_mb']} MB"
                )
        lines.append("scale " + "; ".join(parts))
    pf = result.get("per_file")
    if pf:
        lines.append(f"\nper file, in-process serial: {pf['cpu_s']} CPU s")
        for b in pf["by_size"]:
            lines.append(
                f"  {b['lines']:>10} lines: {b['files']:>4} files, {b['ms_per_1k_lines']:>7.1f} ms/1k lines, median {b['median_ms_per_file']} ms/file"
            )
        lines.append("  slowest:")
        for r in pf["slowest"]:
            lines.append(f"    {r['cpu_s']:>6.2f} s {r['lines']:>6} lines  {r['file']}")
    pre = result.get("prefilter")
    if pre:
        lines.append(
            f"\nprefilter: identical results {pre['identical']}; CPU without {pre['cpu_s']['without']} s, with {pre['cpu_s']['with']} s; {pre['findings']} findings (ALL rules)"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
