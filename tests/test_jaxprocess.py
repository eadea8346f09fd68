"""tests/jaxprocess.py runs a script as `python script.py` would (see its docstring)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.jax
pytest.importorskip("jax")

from tests.jaxprocess import run_script  # noqa: E402

REPORT = """
import json, os, sys
import jax
print(json.dumps({
    "name": __name__,
    "argv": sys.argv,
    "path0": sys.path[0],
    "cwd": os.getcwd(),
    "only_here": os.environ.get("ONLY_HERE"),
    "removed": "REMOVED_HERE" in os.environ,
    "devices": jax.device_count(),
    "x64": bool(jax.config.jax_enable_x64),
    "stdin": sys.stdin.read(),
}))
"""


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
    env["JAX_PLATFORMS"] = "cpu"
    env.update(extra)
    return env


def _script(tmp_path: Path, name: str, text: str) -> Path:
    folder = tmp_path / "scripts"
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_a_forked_run_sees_what_a_fresh_interpreter_sees(tmp_path: Path) -> None:
    import json

    script = _script(tmp_path, "report.py", REPORT)
    work = tmp_path / "work"
    work.mkdir()
    env = _env(ONLY_HERE="yes", XLA_FLAGS="--xla_force_host_platform_device_count=8")
    env.pop("REMOVED_HERE", None)
    os.environ["REMOVED_HERE"] = "1"  # in the server's parent, not in the job's environment
    try:
        forked = run_script(script, cwd=work, env=env, timeout=60, args=("a", "b"))
        fresh = subprocess.run(
            [sys.executable, str(script), "a", "b"],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=60,
        )
    finally:
        del os.environ["REMOVED_HERE"]
    assert forked.returncode == fresh.returncode == 0, forked.stderr + fresh.stderr
    assert json.loads(forked.stdout) == json.loads(fresh.stdout)
    seen = json.loads(forked.stdout)
    assert seen["name"] == "__main__" and seen["argv"] == [str(script), "a", "b"]
    assert seen["path0"] == str(script.parent) and seen["cwd"] == str(work)
    assert seen["only_here"] == "yes" and not seen["removed"] and seen["stdin"] == ""
    assert seen["devices"] == 8 and not seen["x64"]

    # XLA_FLAGS is read after the fork: the same server gives another device count
    one = run_script(script, cwd=work, env=_env(), timeout=60)
    assert json.loads(one.stdout)["devices"] == 1
    # a JAX_* variable is read at import: such a job gets a server of its own
    x64 = run_script(script, cwd=work, env=_env(JAX_ENABLE_X64="1"), timeout=60)
    assert json.loads(x64.stdout)["x64"]


@pytest.mark.parametrize(
    ("body", "code", "stderr"),
    [
        ("raise ValueError('boom')", 1, "ValueError: boom"),
        ("import sys; sys.exit(3)", 3, ""),
        ("import sys; sys.exit('bad input')", 1, "bad input"),
        ("import os, signal; os.kill(os.getpid(), signal.SIGTERM)", -15, ""),
        ("import atexit; atexit.register(print, 'at exit')", 0, ""),
    ],
)
def test_exit_status_as_the_interpreter_gives_it(
    tmp_path: Path, body: str, code: int, stderr: str
) -> None:
    script = _script(tmp_path, "exits.py", f"print('out')\n{body}\n")
    proc = run_script(script, cwd=tmp_path, env=_env(), timeout=60)
    assert proc.returncode == code, proc.stderr
    assert stderr in proc.stderr
    if "atexit" in body:
        assert proc.stdout == "out\nat exit\n"
    elif code >= 0:
        assert proc.stdout == "out\n"


def test_a_timeout_kills_the_process_group(tmp_path: Path) -> None:
    marker = tmp_path / "survived"
    script = _script(
        tmp_path,
        "hangs.py",
        f"""
        import subprocess, sys, time
        subprocess.Popen([sys.executable, "-c",
                          "import time; time.sleep(1.5); open({str(marker)!r}, 'w').close()"])
        time.sleep(60)
        """,
    )
    proc = run_script(script, cwd=tmp_path, env=_env(), timeout=0.5)
    assert proc.returncode == -1 and "timed out" in proc.stderr
    import time

    time.sleep(2)
    assert not marker.exists()  # the grandchild was killed with its group
