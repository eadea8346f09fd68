"""Run every recall case with real JAX and check that the bad program shows its sharp bit
and the good twin does not; write what was seen to ``verified.json``.

    /work/venv/bin/python benchmarks/recall/verify_cases.py [--only NAME ...]

Each program runs in its own subprocess on CPU (``JAX_PLATFORMS=cpu``), from its own
folder (so a multi-module case imports its siblings). The bad program's ``# check:``
header says what to look for:

- ``error:TEXT``: the bad run fails with TEXT in its output (the documented error); the
  good run exits 0 without it.
- ``keyreuse``: both run with ``JAX_DEBUG_KEY_REUSE=1`` (JAX's own key-reuse checker)
  and ``JAX_ENABLE_CUSTOM_PRNG=1`` (so ``PRNGKey`` returns a typed key, which the checker
  tracks); the bad run raises ``KeyReuseError``, the good one exits 0.
- ``stdout:TEXT``: both exit 0; the bad program prints TEXT, the good one does not (the
  program prints its own observation, e.g. ``identical draws: True``).
- ``compiles:NAME>N``: both run with ``JAX_LOG_COMPILES=1``; the bad run compiles
  ``jit(NAME)`` more than N times, the good one at most N.
- ``elapsed<good/K`` / ``elapsed>good*K``: both print ``elapsed=SECONDS``; the bad
  program's reported time is K times below (timing only the dispatch) or above
  (timing the compilation) the good one's.
- ``warning:TEXT``: both exit 0; TEXT is in the bad run's output only.
- ``runs``: both exit 0 (an advisory: the API is deprecated, not broken, here).

This script imports no JAX itself and is not a test (it needs JAX and takes a minute or
two); ``tests/test_recall_corpus.py`` checks the recorded ``verified.json`` instead.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from cases import Case, load_cases  # noqa: E402

VERIFIED = Path(__file__).parent / "verified.json"


def _run(case: Case, which: str, env_extra: dict[str, str]) -> tuple[int, str, str]:
    entry = case.entry(which)
    env = dict(os.environ, JAX_PLATFORMS="cpu", PYTHONWARNINGS="default", **env_extra)
    env.pop("PYTHONPATH", None)
    proc = subprocess.run(
        [sys.executable, entry.name],
        cwd=entry.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return proc.returncode, proc.stdout, proc.stderr


def _last_line(text: str) -> str:
    """The last error line if there is one (JAX's traceback ends in notes), else the last."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    errors = [line for line in lines if re.match(r"[\w.]*(Error|Exception)\b", line)]
    chosen = errors or lines
    return chosen[-1][:200] if chosen else ""


def _elapsed(stdout: str) -> float:
    found = re.findall(r"elapsed=([0-9.eE+-]+)", stdout)
    return float(found[-1]) if found else float("nan")


def verify(case: Case) -> dict[str, object]:
    """Run the pair; return {'ok': bool, 'bad': what it showed, 'good': what it showed}."""
    check = case.check
    env: dict[str, str] = {}
    if check == "keyreuse":
        # legacy uint32 keys (PRNGKey) are checked only as typed keys: the custom-PRNG
        # flag makes PRNGKey return one, without changing the program
        env.update(JAX_DEBUG_KEY_REUSE="1", JAX_ENABLE_CUSTOM_PRNG="1")
    if check.startswith("compiles:"):
        env["JAX_LOG_COMPILES"] = "1"
    bad = _run(case, "bad", env)
    good = _run(case, "good", env)
    (brc, bout, berr), (grc, gout, gerr) = bad, good
    ball, gall = bout + berr, gout + gerr
    if check.startswith("error:"):
        text = check[len("error:") :]
        ok = brc != 0 and text in ball and grc == 0 and text not in gall
        shown = (_last_line(berr), f"exit 0: {_last_line(gout)}" if grc == 0 else _last_line(gerr))
    elif check == "keyreuse":
        ok = brc != 0 and "KeyReuseError" in ball and grc == 0
        shown = (
            _last_line(berr),
            f"exit {grc}, no KeyReuseError" if grc == 0 else _last_line(gerr),
        )
    elif check.startswith("stdout:"):
        text = check[len("stdout:") :]
        ok = brc == 0 and grc == 0 and text in bout and text not in gout
        matched = [line for line in bout.splitlines() if text in line]
        shown = ((matched or [""])[-1][:200], _last_line(gout))
    elif check.startswith("compiles:"):
        name, limit = check[len("compiles:") :].rsplit(">", 1)
        pattern = f"Compiling jit({name})"
        nbad, ngood = ball.count(pattern), gall.count(pattern)
        ok = brc == 0 and grc == 0 and nbad > int(limit) >= ngood
        shown = (f"{nbad} compilations of jit({name})", f"{ngood} compilations of jit({name})")
    elif check.startswith("elapsed"):
        tb, tg = _elapsed(bout), _elapsed(gout)
        factor = float(re.split(r"[/*]", check)[-1])
        if "<" in check:
            ok = tb * factor < tg
        else:
            ok = tb > tg * factor
        ok = ok and brc == 0 and grc == 0
        shown = (f"reported {tb:.6f} s", f"reported {tg:.6f} s")
    elif check.startswith("warning:"):
        text = check[len("warning:") :]
        ok = brc == 0 and grc == 0 and text in ball and text not in gall
        shown = (_last_line(berr), f"exit 0: {_last_line(gout)}")
    elif check == "runs":
        ok = brc == 0 and grc == 0
        shown = (f"exit 0: {_last_line(bout)}", f"exit 0: {_last_line(gout)}")
    else:
        raise ValueError(f"{case.name}: unknown check {check!r}")
    return {"ok": ok, "check": check, "bad": shown[0], "good": shown[1]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="case names to run (default: all)")
    parser.add_argument("--no-write", action="store_true", help="do not update verified.json")
    args = parser.parse_args()
    import importlib.metadata

    jax_version = importlib.metadata.version("jax")
    results = json.loads(VERIFIED.read_text())["cases"] if VERIFIED.exists() else {}
    failed = []
    for case in load_cases():
        if args.only and case.name not in args.only:
            continue
        start = time.perf_counter()
        result = verify(case)
        result["jax"] = jax_version
        results[case.name] = result
        mark = "ok  " if result["ok"] else "FAIL"
        print(f"{mark} {case.name:32} {time.perf_counter() - start:5.1f}s  {result['bad']}")
        if not result["ok"]:
            failed.append(case.name)
            print(f"     good: {result['good']}")
    if not args.no_write:
        VERIFIED.write_text(json.dumps({"cases": dict(sorted(results.items()))}, indent=1) + "\n")
    print(f"{len(failed)} failed: {failed}" if failed else "all verified")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
