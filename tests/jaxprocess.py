"""Run a Python script as `python script.py` would, forked from a process that imported JAX.

Why: the suite runs ~50 JAX programs (the fixed real-world reproductions, the templates), each
in an interpreter of its own, and starting Python plus `import jax` was most of what each run
cost (0.8 s on Python 3.13, 1.4 s on 3.11, 1.8 s on 3.10, idle machine). Here a server process
imports JAX once and forks one child per script.

What a child keeps from a fresh `python script.py`: a process of its own (one exit status, one
process group, killed at the timeout), the script run as `__main__` (`__file__`, `sys.argv`,
`sys.path[0]` its folder), its working directory and exactly its environment, stdin from
/dev/null, stdout/stderr captured, and the interpreter's exit status (SystemExit's code; 1 and a
traceback for an uncaught exception; -N when killed by signal N).

What differs: `jax` and `numpy` are imported before the script starts, so what they read from
the environment at import (the JAX_* variables) and what the interpreter reads at start-up
(PYTHON*) come from the server's environment: a server serves only jobs whose JAX_* and
PYTHON* variables are its own, and other jobs get another server. Variables read later, such
as XLA_FLAGS (read when the first backend starts, after the fork), may differ from job to job.
No JAX backend is started in the server, so the children fork from a single-threaded JAX.
tests/test_jaxprocess.py checks each of these points.
"""

from __future__ import annotations

import atexit
import json
import os
import subprocess
import sys
import tempfile
import threading

_SERVER = r"""
import json, os, runpy, signal, sys, time, traceback
import numpy, jax  # noqa: F401 - the point: imported once, before the fork

def child(job):
    os.setpgid(0, 0)
    os.chdir(job["cwd"])
    os.environ.clear()
    os.environ.update(job["env"])
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    for fd, path in ((1, job["stdout"]), (2, job["stderr"])):
        out = os.open(path, os.O_WRONLY | os.O_TRUNC)
        os.dup2(out, fd)
    sys.stdin = open(0, encoding="utf-8", closefd=False)  # not the server's read-ahead
    sys.stdout = open(1, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
    sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
    sys.argv = [job["path"], *job["args"]]
    sys.path[0] = os.path.dirname(os.path.abspath(job["path"]))
    code = 0
    try:
        runpy.run_path(job["path"], run_name="__main__")
    except SystemExit as exc:
        if exc.code is None:
            code = 0
        elif isinstance(exc.code, int):
            code = exc.code
        else:
            print(exc.code, file=sys.stderr)
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    try:
        import atexit
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code & 0xFF)

for line in sys.stdin:
    job = json.loads(line)
    pid = os.fork()
    if pid == 0:
        child(job)
    deadline = time.monotonic() + job["timeout"]
    timed_out = False
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            timed_out = True
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)
            break
        time.sleep(0.01)
    code = -1 if timed_out else os.waitstatus_to_exitcode(status)
    sys.stdout.write(json.dumps({"returncode": code, "timed_out": timed_out}) + "\n")
    sys.stdout.flush()
"""


def _startup_env(env: dict[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((k, v) for k, v in env.items() if k.startswith(("JAX_", "PYTHON"))))


class _Server:
    def __init__(self, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _SERVER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
            cwd=tempfile.gettempdir(),
        )

    def run(self, job: dict[str, object]) -> dict[str, object]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(job) + "\n")
        self.proc.stdin.flush()
        reply = self.proc.stdout.readline()
        if not reply:
            raise RuntimeError(f"the JAX fork server exited ({self.proc.wait()})")
        return json.loads(reply)

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


_lock = threading.Lock()
_idle: dict[tuple[tuple[str, str], ...], list[_Server]] = {}
_all: list[_Server] = []


@atexit.register
def _close_all() -> None:
    for server in _all:
        server.close()


def run_script(
    path: str | os.PathLike[str],
    *,
    cwd: str | os.PathLike[str],
    env: dict[str, str],
    timeout: float,
    args: tuple[str, ...] = (),
) -> subprocess.CompletedProcess[str]:
    """`subprocess.run([sys.executable, path, *args], cwd=, env=, capture_output=True,
    text=True)`, forked from a server that imported JAX (see the module docstring). A timeout
    kills the script's process group and gives return code -1 and a "timed out" stderr."""
    key = _startup_env(env)
    with _lock:
        servers = _idle.setdefault(key, [])
        server = servers.pop() if servers else None
    if server is None:
        server = _Server(env)
        with _lock:
            _all.append(server)
    with tempfile.TemporaryDirectory() as tmp:
        out, err = os.path.join(tmp, "stdout"), os.path.join(tmp, "stderr")
        for name in (out, err):
            open(name, "wb").close()
        job = {
            "path": os.fspath(path),
            "args": list(args),
            "cwd": os.fspath(cwd),
            "env": env,
            "timeout": timeout,
            "stdout": out,
            "stderr": err,
        }
        try:
            reply = server.run(job)
        except BaseException:
            server.close()
            raise
        with _lock:
            _idle[key].append(server)

        def text(name: str) -> str:
            with open(name, encoding="utf-8", errors="replace", newline=None) as handle:
                return handle.read()

        stdout, stderr = text(out), text(err)
    if reply["timed_out"]:
        stderr += f"\ntimed out after {timeout} s"
    return subprocess.CompletedProcess(
        [sys.executable, os.fspath(path), *args], int(reply["returncode"]), stdout, stderr
    )
