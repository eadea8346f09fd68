"""One JAX import per `jaxlint verify` run: a fork server for the sandbox's children.

Every sandbox child (`sandbox.run_isolated`) and the `--capture-main` run used to be a fresh
interpreter that imported JAX, about 1.3 s CPU each, and a file paid for two or three of them
(the captured run, the verifier's child, a second child for simulated devices). Inside
`forking()`, the first child that is needed starts ONE server process (`python -m
jaxlint.runtime.forkserver`) that imports JAX, NumPy and the runner and kinds, without starting
any XLA backend, and then forks every child from that state:

- each forked child is what a fresh child was: its own process, its own session (the timeout
  kills its whole group, what it started included), its own environment (applied before any
  backend starts, so `XLA_FLAGS` such as a simulated device count still take effect), its own
  working directory, stdin from /dev/null, its prints and stderr in a file, its result in a
  file; nothing it does reaches the server, the next child or the CLI;
- what it shares with the others is the server's state at the fork: modules imported, none of
  the user's code run, no backend, no compiled program. A child whose environment differs in
  anything JAX reads at import (any variable but `XLA_FLAGS`, `PYTHONPATH`, `PYTHONUNBUFFERED`,
  `PYTHONDONTWRITEBYTECODE` and jaxlint's own) is not forked: it starts fresh, as before; so do
  children with a memory limit (the limit must hold JAX's own mappings too), children that echo
  their stderr, and any child while another one is running (parallel groups).

Nothing is started outside `forking()` or before a child is needed: a file with nothing to run
starts no process at all. The server ends with the block; the CPU of its children is counted
in its own, which its parent reaps. If the server cannot start or dies, the child runs fresh.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

PRELOAD = (
    "numpy",
    "jax",
    "jax.numpy",
    "jaxlint.runtime.runner",
    "jaxlint.runtime.capture_hook",
)
# read by the child at run time, not by `import jax`: may differ between children
RUN_TIME_ENV = {"XLA_FLAGS", "PYTHONPATH", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE"}
STDERR_KEEP = 1 << 20
START_SECONDS = 120.0  # the server's own start (importing JAX under load)

_current: ForkServer | None = None
_current_lock = threading.Lock()


def _import_time_env(env: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k not in RUN_TIME_ENV and not k.startswith("JAXLINT_")}


class ForkServer:
    """Parent side: the server process, started on first use."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self.env = dict(env)
        self.lock = threading.Lock()  # one child at a time
        self.proc: subprocess.Popen[bytes] | None = None
        self.broken = False
        self.started = 0  # children forked (for tests and the report)
        self._buffer = b""
        self.eof = False

    # ------------------------------------------------------------------ parent side

    def accepts(self, env: Mapping[str, str]) -> bool:
        return not self.broken and _import_time_env(env) == _import_time_env(self.env)

    def _start(self) -> bool:
        if self.proc is not None:
            return True
        if self.broken:
            return False
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "jaxlint.runtime.forkserver"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=self.env,
                start_new_session=True,
            )
        except OSError:
            self.broken = True
            return False
        ready = self._read(time.monotonic() + START_SECONDS)
        if not ready or not ready.get("ready"):
            self.close()
            self.broken = True
            return False
        return True

    def _read(self, deadline: float) -> dict[str, Any] | None:
        """The server's next message, or None at its end or the deadline."""
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], min(left, 1.0))
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                self.eof = True
                return None
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            value = json.loads(line)
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    def fork(
        self, request: dict[str, Any], timeout: float
    ) -> tuple[int | None, bool, float] | None:
        """Fork one child for `request`; wait for it at most `timeout` s, then kill its
        session. (exit code, negative for a signal, or None; timed out; seconds), or None
        when the server is unusable (the caller starts a fresh child)."""
        if not self._start():
            return None
        assert self.proc is not None and self.proc.stdin is not None
        start = time.perf_counter()
        try:
            self.proc.stdin.write(json.dumps(request).encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            self.broken = True
            return None
        forked = self._read(time.monotonic() + 30.0)
        if not forked or "pid" not in forked:
            self.broken = True
            return None
        self.started += 1
        pid = int(forked["pid"])
        done = self._read(time.monotonic() + timeout)
        _kill_session(pid)  # what the child left running goes with it
        if done is None and self.eof:  # the server died: nothing known of the child
            self.broken = True
            return None
        timed_out = done is None
        if timed_out:
            done = self._read(time.monotonic() + 10.0)
            if done is None:
                self.broken = True
        seconds = time.perf_counter() - start
        code = done.get("code") if done else None
        return code, timed_out, seconds

    def run_target(
        self, target: str, payload: dict[str, Any], env: Mapping[str, str], timeout: float
    ) -> tuple[int | None, bool, bytes, str, float] | None:
        """`sandbox.run_isolated`'s child, forked: (exit code, timed out, its result bytes,
        its stderr, seconds), or None (start a fresh child instead)."""
        with tempfile.TemporaryDirectory(prefix="jaxlint-fork-") as work:
            result = os.path.join(work, "result.json")
            log = os.path.join(work, "stderr")
            request = {
                "target": target,
                "payload": payload,
                "env": dict(env),
                "cwd": os.getcwd(),
                "result": result,
                "log": log,
            }
            outcome = self.fork(request, timeout)
            if outcome is None:
                return None
            code, timed_out, seconds = outcome
            return code, timed_out, _read_bytes(result), tail_of(log), seconds

    def run_script(
        self, path: str, env: Mapping[str, str], cwd: str, timeout: float, log: str
    ) -> tuple[int | None, bool] | None:
        """`python PATH` in `cwd`, forked (the `--capture-main` run); stderr to `log`:
        (exit code, timed out), or None (start a fresh process instead)."""
        request = {"script": path, "env": dict(env), "cwd": cwd, "log": log}
        outcome = self.fork(request, timeout)
        if outcome is None:
            return None
        return outcome[0], outcome[1]

    def close(self) -> None:
        # never restarted: a block nested in another thread's (an MCP server verifying two
        # files at once) may restore this server as current after its own block ended
        self.broken = True
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()  # the server's end: it reaps its children and exits
            proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            pass
        _kill_session(proc.pid)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - unkillable
            pass
        if proc.stdout is not None:
            proc.stdout.close()


@contextlib.contextmanager
def forking(env: Mapping[str, str] | None = None) -> Iterator[ForkServer]:
    """Within the block, sandbox children (and the `--capture-main` run) fork from one server
    that imported JAX once; it starts at the first child and ends with the block."""
    global _current
    base = dict(os.environ if env is None else env)
    base.setdefault("JAX_PLATFORMS", "cpu")
    base.setdefault("PYTHONUNBUFFERED", "1")
    package_root = str(Path(__file__).resolve().parents[2])
    paths = [package_root, *filter(None, base.get("PYTHONPATH", "").split(os.pathsep))]
    base["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    server = ForkServer(base)
    with _current_lock:
        previous, _current = _current, server
    try:
        yield server
    finally:
        with _current_lock:
            _current = previous
        server.close()


def server_for(env: Mapping[str, str]) -> ForkServer | None:
    """The current server, its lock taken, when it can fork a child with `env`; else None."""
    server = _current
    if server is None or not server.accepts(env):
        return None
    if not server.lock.acquire(blocking=False):
        return None  # another child is running (parallel groups): this one starts fresh
    return server


def _kill_session(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, OSError):
        pass


def _read_bytes(path: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return b""


def tail_of(path: str, keep: int = STDERR_KEEP) -> str:
    try:
        with open(path, "rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            handle.seek(max(0, size - keep))
            return handle.read().decode("utf-8", "replace")
    except OSError:
        return ""


# ---------------------------------------------------------------------- server side


def _child(request: dict[str, Any]) -> None:
    """In the forked child: become the fresh child the request describes, run it, exit."""
    code = 1
    try:
        os.setsid()
        os.environ.clear()
        os.environ.update(request["env"])
        os.chdir(request["cwd"])
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(log, 2)
        sys.stdin = open(0, closefd=False)  # noqa: SIM115 - the process's own stdin
        if "script" in request:
            sink = os.open(os.devnull, os.O_WRONLY)  # `python FILE`'s stdout: DEVNULL
            os.dup2(sink, 1)
            code = _run_script(request["script"])
        else:
            # PYTHONPATH entries of this child's environment the server did not start with
            entries = [p for p in request["env"].get("PYTHONPATH", "").split(os.pathsep) if p]
            sys.path[1:1] = [p for p in dict.fromkeys(entries) if p not in sys.path]
            from jaxlint.runtime import sandbox

            with open(request["result"], "w", encoding="utf-8") as result:
                os.dup2(2, 1)  # user prints go to the log, as in a fresh child
                code = sandbox.serve(request["target"], request["payload"], result)
    except BaseException:  # pragma: no cover - the child's own setup failed
        try:
            import traceback

            traceback.print_exc()
        except BaseException:
            pass
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:
            pass
        os._exit(code)


def _run_script(path: str) -> int:
    """`python PATH`: its folder first on sys.path, `__main__`, exit code as Python's own."""
    import atexit
    import runpy
    import traceback

    sys.argv = [path]
    sys.path[0] = os.path.dirname(path)
    sys.dont_write_bytecode = bool(os.environ.get("PYTHONDONTWRITEBYTECODE"))
    if os.environ.get("JAXLINT_CAPTURE"):
        from jaxlint.runtime import capture_hook

        capture_hook.install_from_env()  # what the capture's sitecustomize does
    code = 0
    try:
        runpy.run_path(path, run_name="__main__")
    except SystemExit as exc:
        if exc.code is None:
            code = 0
        elif isinstance(exc.code, int):
            code = exc.code
        else:
            sys.stderr.write(f"{exc.code}\n")
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    try:
        atexit._run_exitfuncs()  # the user's, the recorder's and JAX's exit hooks
    except BaseException:
        pass
    return code


def serve() -> None:
    """Server main: import, say ready, then fork one child per request line on stdin."""
    import warnings

    for name in PRELOAD:
        try:
            __import__(name)
        except Exception:
            pass
    try:
        from jax._src import xla_bridge

        started_backend = bool(getattr(xla_bridge, "_backends", {}))
    except Exception:
        started_backend = False
    out = sys.stdout.buffer
    if started_backend:  # a fork would share XLA's threads: refuse, the parent starts fresh
        out.write(b'{"ready": false}\n')
        out.flush()
        return
    import gc

    gc.collect()
    gc.freeze()  # the children's collections skip (and do not copy) the server's objects
    out.write(b'{"ready": true}\n')
    out.flush()
    for line in sys.stdin.buffer:
        try:
            request = json.loads(line)
        except ValueError:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # "multi-threaded": OpenBLAS
            pid = os.fork()
        if pid == 0:
            _child(request)
        out.write(json.dumps({"pid": pid}).encode() + b"\n")
        out.flush()
        _, status = os.waitpid(pid, 0)
        out.write(json.dumps({"pid": pid, "code": os.waitstatus_to_exitcode(status)}).encode())
        out.write(b"\n")
        out.flush()


if __name__ == "__main__":
    serve()
