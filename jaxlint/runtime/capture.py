"""Parent half of `jaxlint verify --capture-main` / `--capture-cmd CMD`: real inputs from a real run.

`run_capture` starts the user's own program (its `__main__` block, or any command such as
`pytest tests/test_train.py -x` or `python train.py --steps 2`) in a subprocess of its own
session, with a `sitecustomize` first on its PYTHONPATH that installs `capture_hook` (a
`sys.setprofile` recorder) in every Python process the command starts. The recorder writes the
abstract signatures of the target functions into a temporary folder; this module merges them.

Safety: the command runs with a timeout (its whole process group is killed), with
`PYTHONDONTWRITEBYTECODE=1`, and `--capture-main` runs in an empty temporary working directory,
so relative writes of the program land there and jaxlint writes nothing next to the user's files.
Nothing here imports JAX.
"""

from __future__ import annotations

import glob
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from jaxlint.core.errors import UsageError

DEFAULT_CAPTURE_TIMEOUT = 120.0
DEFAULT_MAX_CALLS = 3

_SITECUSTOMIZE = '''\
"""jaxlint capture: install the input recorder, then run any other sitecustomize."""
import os as _os
import sys as _sys

if _os.environ.get("JAXLINT_CAPTURE"):
    try:
        from jaxlint.runtime import capture_hook as _hook

        _hook.install_from_env()
    except Exception as _exc:  # never break the user's program
        _sys.stderr.write(f"jaxlint capture: not installed: {_exc!r}\\n")


def _chain():
    import importlib.machinery
    import importlib.util

    here = _os.path.dirname(_os.path.abspath(__file__))
    path = [p for p in _sys.path if _os.path.abspath(p or ".") != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)


_chain()
'''


def command_for(
    path: str, *, main: bool = False, command: str | Sequence[str] | None = None
) -> list[str]:
    """The argv to run: `python FILE` for `--capture-main`; CMD otherwise, with a leading
    `python`/`python3` or `pytest` run by this interpreter (the one that has jaxlint and JAX)."""
    if main:
        return [sys.executable, os.path.abspath(path)]
    if command is None:
        raise UsageError("capture needs --capture-main or --capture-cmd")
    argv = shlex.split(command) if isinstance(command, str) else list(command)
    if not argv:
        raise UsageError("--capture-cmd is empty")
    head = os.path.basename(argv[0])
    if head in ("python", "python3", f"python{sys.version_info[0]}.{sys.version_info[1]}"):
        return [sys.executable, *argv[1:]]
    if head in ("pytest", "py.test"):
        return [sys.executable, "-m", "pytest", *argv[1:]]
    return argv


def run_capture(
    path: str,
    *,
    main: bool = False,
    command: str | Sequence[str] | None = None,
    targets: Iterable[str] = (),
    timeout: float = DEFAULT_CAPTURE_TIMEOUT,
    max_calls: int = DEFAULT_MAX_CALLS,
    settle: float = 2.0,
    memory_mb: int | None = None,
    cwd: str | None = None,
) -> dict[str, Any]:
    """Run the program and return what was recorded:

    `{"command": "...", "ok": bool, "reason": str, "seconds": float, "exit": int | None,
    "functions": {qualname: {"calls": n, "signatures": [{"inputs": [[param, spec|None, why],
    ...], "called_from": "file.py:12"}]}}, "stderr_tail": [...]}`.
    """
    import ast

    from jaxlint.runtime.capture_hook import function_lines, module_wrappers

    abspath = os.path.realpath(path)
    source = Path(abspath).read_text(encoding="utf-8")
    try:
        lines = function_lines(source)
        wrappers = module_wrappers(ast.parse(source))
    except SyntaxError as exc:
        raise UsageError(f"cannot parse {path!r}: {exc}") from None
    argv = command_for(path, main=main, command=command)
    if main and not has_main_block(source) and not has_module_driver(source):
        return {
            "command": f"python {path}",
            "ok": False,
            "reason": f'{path} has no `if __name__ == "__main__":` block and calls none of its '
            "functions at module level; use --capture-cmd to run a script or tests that call them",
            "exit": None,
            "seconds": 0.0,
            "targets": list(targets),
            "functions": {},
            "stderr_tail": [],
        }
    known = set(lines.values()) | set(wrappers)
    wanted = [t for t in dict.fromkeys(targets) if t in known]
    work = tempfile.mkdtemp(prefix="jaxlint-capture-")
    try:
        hook_dir, out_dir, run_dir = (os.path.join(work, d) for d in ("hook", "out", "cwd"))
        config = {
            "file": abspath,
            "functions": {str(k): v for k, v in lines.items()},
            "wrappers": wrappers,
            "targets": wanted or sorted(known),
            "max_calls": max_calls,
            "settle": settle,
            "out": out_dir,
            "stop": True,
            "memory_mb": memory_mb,
        }
        env = _prepare(work, hook_dir, out_dir, run_dir, config)
        from jaxlint.verify.jobs import DEVICES, mentions_devices

        if mentions_devices(source) and env.get("JAX_PLATFORMS") == "cpu":
            # the devices the verifier's child simulates for such a file: the recorded shapes
            # (a pmap's leading axis, a sharded batch) then fit it
            flags = env.get("XLA_FLAGS", "")
            if "xla_force_host_platform_device_count" not in flags:
                env["XLA_FLAGS"] = (
                    f"{flags} --xla_force_host_platform_device_count={DEVICES}".strip()
                )
        started = time.perf_counter()
        code, reason, tail = _run_program(
            argv, run_dir if main else (cwd or os.getcwd()), env, timeout
        )
        functions = merge(out_dir, max_calls)
        seen = [t for t in config["targets"] if t in functions]
        if not reason:
            reason = f"recorded {len(seen)} of {len(config['targets'])} target function(s)" + (
                f"; the command exited with code {code}" if code else ""
            )
        return {
            "command": shlex.join(argv) if not main else f"python {path}",
            "ok": bool(functions),
            "reason": reason,
            "exit": code,
            "seconds": round(time.perf_counter() - started, 3),
            "targets": config["targets"],
            "functions": functions,
            "stderr_tail": tail if not functions or code else [],
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _prepare(
    work: str, hook_dir: str, out_dir: str, run_dir: str, config: dict[str, Any]
) -> dict[str, str]:
    """Write the recording hook (a `sitecustomize.py` every Python child imports) and its
    configuration under `work`; the environment that makes the program's processes load it."""
    from jaxlint.runtime.capture_hook import CONFIG_ENV

    for folder in (hook_dir, out_dir, run_dir):
        os.makedirs(folder)
    with open(os.path.join(hook_dir, "sitecustomize.py"), "w", encoding="utf-8") as handle:
        handle.write(_SITECUSTOMIZE)
    config_path = os.path.join(work, "config.json")
    with open(config_path, "w", encoding="utf-8") as handle:
        json.dump(config, handle)
    env = dict(os.environ)
    package_root = str(Path(__file__).resolve().parents[2])
    paths = [hook_dir, package_root, *filter(None, env.get("PYTHONPATH", "").split(os.pathsep))]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    env[CONFIG_ENV] = config_path
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.setdefault("JAX_PLATFORMS", "cpu")
    env.setdefault("PYTHONUNBUFFERED", "1")
    return env


def _run_program(
    argv: list[str], cwd: str, env: dict[str, str], timeout: float
) -> tuple[int | None, str, list[str]]:
    """Run the program in its own session, killed (with all it started) after `timeout`:
    (exit code or None, why it did not finish or "", the last lines of its stderr)."""
    reason = ""
    code: int | None = None
    forked = _forked_script(argv, cwd, env, timeout)
    if forked is not None:
        return forked
    with tempfile.TemporaryFile() as errors:
        try:
            proc = subprocess.Popen(
                argv,
                cwd=cwd,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=errors,
                env=env,
                start_new_session=True,
            )
        except OSError as exc:
            raise UsageError(f"cannot run {shlex.join(argv)!r}: {exc}") from None
        try:
            code = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            reason = f"timed out after {timeout:g} s"
        finally:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                pass
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:  # pragma: no cover
                pass
        errors.seek(0, os.SEEK_END)
        size = errors.tell()
        errors.seek(max(0, size - 20000))
        tail = errors.read().decode("utf-8", "replace").splitlines()[-20:]
    return code, reason, tail


def _forked_script(
    argv: list[str], cwd: str, env: dict[str, str], timeout: float
) -> tuple[int | None, str, list[str]] | None:
    """`python FILE` forked from the run's fork server (`forkserver.forking()`: JAX imported
    once for the captured run and the verifier's children), or None: start it fresh."""
    if len(argv) != 2 or argv[0] != sys.executable:
        return None
    from jaxlint.runtime import forkserver

    server = forkserver.server_for(env)
    if server is None:
        return None
    try:
        with tempfile.TemporaryDirectory(prefix="jaxlint-capture-log-") as work:
            log = os.path.join(work, "stderr")
            outcome = server.run_script(argv[1], env, cwd, timeout, log)
            if outcome is None:
                return None
            code, timed_out = outcome
            tail = forkserver.tail_of(log, 20000).splitlines()[-20:]
    finally:
        server.lock.release()
    return (
        (None if timed_out else code),
        (f"timed out after {timeout:g} s" if timed_out else ""),
        tail,
    )


def has_main_block(source: str) -> bool:
    """Whether the module has a top-level `if __name__ == "__main__":`."""
    import ast

    return any(is_main_block(stmt) for stmt in ast.parse(source).body)


def has_module_driver(source: str) -> bool:
    """Whether module-level code (outside defs and classes) calls a function or class the module
    defines: a script that drives itself without a `__main__` block (`for epoch in range(3):
    w = step(w, x, y)`, `timeit.timeit(lambda: f(x))`), which `python FILE` runs."""
    import ast

    tree = ast.parse(source)
    defined = {
        stmt.name
        for stmt in tree.body
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    }
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for sub in ast.walk(stmt):
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name):
                if sub.func.id in defined:
                    return True
    return False


def is_main_block(stmt: Any) -> bool:
    """Is this top-level statement `if __name__ == "__main__":`?"""
    import ast

    if isinstance(stmt, ast.If) and isinstance(stmt.test, ast.Compare):
        names = [stmt.test.left, *stmt.test.comparators]
        return any(isinstance(n, ast.Name) and n.id == "__name__" for n in names) and any(
            isinstance(n, ast.Constant) and n.value == "__main__" for n in names
        )
    return False


def main_block_lines(tree: Any) -> tuple[int, int] | None:
    """First and last line of the module's `if __name__ == "__main__":` block, if it has one."""
    for stmt in tree.body:
        if is_main_block(stmt):
            return stmt.lineno, stmt.end_lineno or stmt.lineno
    return None


def merge(out_dir: str, max_calls: int) -> dict[str, Any]:
    """Signatures from every process' file, first-seen first, distinct, at most `max_calls`."""
    merged: dict[str, Any] = {}
    for name in sorted(glob.glob(os.path.join(out_dir, "capture-*.json")), key=os.path.getmtime):
        try:
            with open(name, encoding="utf-8") as handle:
                data = json.load(handle)
        except (OSError, ValueError):
            continue
        for qualname, record in (data.get("functions") or {}).items():
            into = merged.setdefault(qualname, {"calls": 0, "signatures": []})
            into["calls"] += int(record.get("calls", 0))
            keys = {signature_text(s) for s in into["signatures"]}
            for sig in record.get("signatures", []):
                if signature_text(sig) not in keys and len(into["signatures"]) < max_calls:
                    into["signatures"].append(sig)
                    keys.add(signature_text(sig))
    return merged


def signature_text(signature: dict[str, Any]) -> str:
    """`x=f32[4,8], key=key, n=3` (a parameter no spec describes shows as `?`)."""
    return ", ".join(
        f"{name}={spec if spec is not None else '?'}" for name, spec, *_ in signature["inputs"]
    )


def captured_inputs(functions: dict[str, Any]) -> dict[str, dict[str, str | None]]:
    """{qualname: {param: spec or None}} from each function's first recorded call."""
    return {q: calls[0] for q, calls in captured_calls(functions).items()}


def captured_calls(functions: dict[str, Any]) -> dict[str, list[dict[str, str | None]]]:
    """{qualname: [{param: spec or None}, ...]}: every distinct recorded call, first-seen first
    (a warm-up or eager first call may not reach the flagged line; a later one may)."""
    out: dict[str, list[dict[str, str | None]]] = {}
    for qualname, record in functions.items():
        calls = [
            {name: spec for name, spec, *_ in signature["inputs"]}
            for signature in record.get("signatures") or []
        ]
        if calls:
            out[qualname] = calls
    return out
