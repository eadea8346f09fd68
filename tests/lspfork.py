"""A `server_command` for pytest-lsp that starts `jaxlint lsp` without paying for the imports.

Why: tests/test_lsp.py starts one server per test (~55 of them), and each start was ~0.9 s of
interpreter start-up and imports (lsprotocol alone is 0.4 s) before the server could answer.
Here one process per pytest process imports jaxlint's LSP server once and listens on a Unix
socket; the command pytest-lsp launches is a small stdlib-only launcher (`python -S`) that hands
its stdin, stdout and stderr to that process, which forks a child running
`jaxlint.cli.main(["lsp", ...])` on them. The launcher exits with the child's status, and if the
launcher is killed, the child is killed too.

What a child keeps from `python -m jaxlint lsp`: its own process, the client's pipes as fds
0-2, the launcher's working directory and exactly its environment. What differs: the modules
are imported before it starts, under the environment the first launcher asked with (the tests
give every server the same one). tests/test_lsp.py::test_stdout_carries_only_protocol_frames
keeps a real `python -m jaxlint lsp` process.
"""

from __future__ import annotations

import atexit
import os
import subprocess
import sys
import tempfile

_SERVER = r"""
import json, os, selectors, signal, socket, sys, traceback
sys.path[0] = os.getcwd()  # `python -m jaxlint` from there: later imports too, after a chdir
import jaxlint.cli, jaxlint.integrations.lsp  # noqa: F401 - the point: imported before the forks

def child(job, fds):
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(job["cwd"])
    os.environ.clear()
    os.environ.update(job["env"])
    # sys.stdin/stdout/stderr wrap fds 0-2, now the client's pipes; the server's own stdin is
    # /dev/null and it flushed its stdout, so nothing of the server's is buffered in them
    sys.argv = ["jaxlint", *job["args"]]
    try:
        code = jaxlint.cli.main(job["args"])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:
        traceback.print_exc()
        code = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit((code or 0) & 0xFF)

listener = socket.socket(socket.AF_UNIX)
listener.bind(sys.argv[1])
listener.listen(64)
sel = selectors.DefaultSelector()
sel.register(listener, selectors.EVENT_READ)
children = {}  # pid -> connection to its launcher
print("ready", flush=True)
while True:
    for key, _ in sel.select(timeout=0.02):
        if key.fileobj is listener:
            conn, _ = listener.accept()
            data, fds, _, _ = socket.recv_fds(conn, 1 << 20, 3)
            job = json.loads(data)
            pid = os.fork()
            if pid == 0:
                sel.close(); listener.close(); conn.close()
                for other in children.values():
                    other.close()
                child(job, fds)
            for fd in fds:
                os.close(fd)
            children[pid] = conn
            sel.register(conn, selectors.EVENT_READ, pid)
        else:  # the launcher went away (it never sends more): its server goes too
            try:
                os.kill(key.data, signal.SIGKILL)
            except ProcessLookupError:
                pass
    for pid, conn in list(children.items()):
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            try:
                conn.sendall(str(os.waitstatus_to_exitcode(status)).encode())
            except OSError:
                pass
            sel.unregister(conn)
            conn.close()
            del children[pid]
"""

_LAUNCHER = r"""
import json, os, signal, socket, sys
conn = socket.socket(socket.AF_UNIX)
conn.connect(sys.argv[1])
job = {"cwd": os.getcwd(), "env": dict(os.environ), "args": sys.argv[2:]}
socket.send_fds(conn, [json.dumps(job).encode()], [0, 1, 2])
reply = b""
while True:
    part = conn.recv(64)
    if not part:
        break
    reply += part
code = int(reply or b"1")
if code < 0:
    signal.signal(-code, signal.SIG_DFL)
    os.kill(os.getpid(), -code)
sys.exit(code)
"""

_paths: dict[tuple[tuple[str, str], ...], str] = {}
_servers: dict[tuple[tuple[str, str], ...], subprocess.Popen[str]] = {}


@atexit.register
def _stop() -> None:
    for proc in _servers.values():
        proc.kill()
        proc.wait()


def _path(env: dict[str, str]) -> tuple[tuple[tuple[str, str], ...], str]:
    key = tuple(sorted(env.items()))
    if key not in _paths:
        _paths[key] = os.path.join(tempfile.mkdtemp(prefix="jaxlint-lsp-"), "socket")
    return key, _paths[key]


def lsp_command(env: dict[str, str], *args: str) -> list[str]:
    """The command line for ClientServerConfig(server_command=..., server_env=env): it serves
    `jaxlint lsp ARGS` from the fork server that `start(env)` starts (call it first: from a
    fixture the client fixture takes, so a process that runs no LSP test starts none)."""
    return [sys.executable, "-S", "-c", _LAUNCHER, _path(env)[1], "lsp", *args]


def start(env: dict[str, str]) -> None:
    key, path = _path(env)
    if key in _servers and _servers[key].poll() is None:
        return
    if os.path.exists(path):
        os.unlink(path)
    proc = subprocess.Popen(
        [sys.executable, "-c", _SERVER, path],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        text=True,
        env=env,
        cwd=os.getcwd(),  # where pytest-lsp would start `python -m jaxlint lsp`
    )
    assert proc.stdout is not None
    if proc.stdout.readline().strip() != "ready":
        raise RuntimeError(f"the LSP fork server did not start (exit status {proc.wait()})")
    _servers[key] = proc
