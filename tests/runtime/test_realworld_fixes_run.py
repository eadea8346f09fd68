"""Every real-world reproduction still runs after `jaxlint check --fix` (issue 15: "safe means
proven safe").

The reproductions in tests/regressions/realworld/ are working code that jaxlint once flagged.
A safe fix may only rely on proven facts, so applying every safe fix to a copy must leave a
program that still runs: fp01's `block_until_ready(<a nested function's local>)` raised
NameError, fp10's `.at[].set` on a dict raised AttributeError. Each fixed copy runs in its own
process on CPU.
"""

from __future__ import annotations

import os
import pathlib
import shutil

import pytest

from tests.jaxprocess import run_script

pytestmark = pytest.mark.jax
pytest.importorskip("jax")

CASES = sorted((pathlib.Path(__file__).parents[1] / "regressions" / "realworld").glob("fp*.py"))
ROOT = pathlib.Path(__file__).parents[2]
# safe fixes on reproductions owned by other work (issue 15): strict xfails until fixed there
FIX_BREAKS: set[str] = set()


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["JAX_PLATFORMS"] = "cpu"
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(p, marks=pytest.mark.xfail(strict=True, reason="safe fix breaks it"))
        if p.stem in FIX_BREAKS
        else p
        for p in CASES
    ],
    ids=[p.stem for p in CASES],
)
def test_reproduction_runs_after_fix(path, tmp_path, run_cli):
    copy = tmp_path / path.name
    shutil.copy(path, copy)
    # --preview: the safe fixes of the rules in preview must be as sound as the others.
    # In-process (run_cli): the fixed program's run below is what needs a process.
    cmd = ["check", "--fix", "--preview", "--no-cache", "--exit-zero", str(copy)]
    fixed = run_cli(*cmd, cwd=ROOT, env=_env())  # cwd: as the subprocess had
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    # its own process, forked from one that imported JAX (tests/jaxprocess.py)
    ran = run_script(copy, cwd=tmp_path, env=_env(), timeout=300)
    changed = copy.read_text(encoding="utf-8") != path.read_text(encoding="utf-8")
    assert ran.returncode == 0, (
        f"{'fixed' if changed else 'unchanged'} copy fails:\n{ran.stderr[-3000:]}"
    )
