"""Run a worker function in a child process, so user code that hangs or crashes cannot take the CLI down.

Parent side: `run_isolated(target, payload, timeout, memory_mb)` starts
`python -m jaxlint.runtime.sandbox` in its own session (the child caps its own address
space with `resource.setrlimit` before doing anything else), sends `{"target", "payload"}` as
JSON on stdin, and reads one JSON object from the child's stdout. The child's fd 1 is pointed at
stderr while the worker runs, so a stray `print` in user code cannot corrupt that object. On
timeout the whole process group is killed; the parent waits for nothing without a deadline.

Inside `forkserver.forking()` the child is forked from a server that already imported JAX
(same isolation, one JAX import per run; see that module for when a child still starts fresh).

Child side (`main`, or `serve` in a forked child): imports `module:function` from `target`, calls it with the payload and writes
`{"ok": true, "result": ...}`, or the exception (type, message, traceback) with exit code 1.
"""

from __future__ import annotations

import importlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Mapping
from pathlib import Path
from typing import Any

MEMORY_ENV = "JAXLINT_SANDBOX_MEMORY_MB"
STDERR_KEEP = 1 << 20  # bytes of the child's stderr kept for the failure reason
USAGE_ERROR_EXIT = 3  # child exit code for a UsageError (bad spec, missing function...)
_MEMORY_WORDS = (
    "memoryerror",
    "resource_exhausted",
    "out of memory",
    "bad_alloc",
    "cannot allocate",
)


def run_isolated(
    target: str,
    payload: dict[str, Any],
    timeout: float = 120.0,
    memory_mb: int | None = None,
    *,
    default_platforms: str | None = "cpu",
    echo_stderr: bool = False,
    env: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Call `target` (`"package.module:function"`) with `payload` in a child process.

    Returns `{"ok": True, "result": ..., "seconds": ...}` or `{"ok": False, "reason": "...", ...}`
    where reason is `"timed out after 5.0 s"`, `"killed by signal 9 (SIGKILL; memory limit?)"` or
    `"exited with code N: <last stderr lines>"`; a failed worker adds `error` (type, message,
    traceback) and every failure adds `stderr_tail`. `JAX_PLATFORMS` from the environment wins;
    `default_platforms` fills it when unset (None leaves JAX to choose). `echo_stderr` streams the
    child's stderr to ours (progress bars, warnings) while still keeping its tail.
    """
    module, sep, func = target.partition(":")
    if not sep or not module or not func:
        raise ValueError(f"sandbox target must look like 'package.module:function', got {target!r}")
    child_env = dict(os.environ if env is None else env)
    if default_platforms and not child_env.get("JAX_PLATFORMS"):
        child_env["JAX_PLATFORMS"] = default_platforms
    package_root = str(Path(__file__).resolve().parents[2])
    paths = [package_root, *filter(None, child_env.get("PYTHONPATH", "").split(os.pathsep))]
    child_env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    child_env.setdefault("PYTHONUNBUFFERED", "1")
    child_env.pop(MEMORY_ENV, None)
    if memory_mb:
        child_env[MEMORY_ENV] = str(int(memory_mb))
    request = json.dumps({"target": target, "payload": payload}).encode()

    forked = _zygote_for(child_env, memory_mb, echo_stderr)
    if forked is not None:
        try:
            outcome = forked.run_target(target, payload, child_env, timeout)
        finally:
            forked.lock.release()
        if outcome is not None:
            code, timed_out, result_bytes, stderr_text, seconds = outcome
            return _outcome(code, timed_out, result_bytes, stderr_text, seconds, timeout, memory_mb)

    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "jaxlint.runtime.sandbox"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=child_env,
        start_new_session=True,
    )
    out_chunks: list[bytes] = []
    err_chunks: list[bytes] = []
    threads = [
        threading.Thread(target=_feed, args=(proc.stdin, request), daemon=True),
        threading.Thread(target=_drain, args=(proc.stdout, out_chunks, False, None), daemon=True),
        threading.Thread(
            target=_drain, args=(proc.stderr, err_chunks, echo_stderr, STDERR_KEEP), daemon=True
        ),
    ]
    for thread in threads:
        thread.start()
    timed_out = False
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
    finally:
        _kill_group(proc)  # also reaps grandchildren the worker left behind
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - unkillable child
            pass
    for thread in threads:
        thread.join(timeout=5)
    seconds = time.perf_counter() - start
    stderr_text = b"".join(err_chunks).decode("utf-8", "replace")
    return _outcome(
        proc.returncode, timed_out, b"".join(out_chunks), stderr_text, seconds, timeout, memory_mb
    )


def _outcome(
    code: int | None,
    timed_out: bool,
    result_bytes: bytes,
    stderr_text: str,
    seconds: float,
    timeout: float,
    memory_mb: int | None,
) -> dict[str, Any]:
    """run_isolated's answer from what the child left: its exit status (negative: the signal),
    its one JSON object, its stderr."""
    stderr_tail = stderr_text.splitlines()[-40:]
    if timed_out:
        return _failure(f"timed out after {float(timeout)!r} s", stderr_tail, seconds)
    message = _parse_message(result_bytes)
    if code is not None and code < 0:
        sig = -code
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = "unknown signal"
        hint = "; memory limit?" if memory_mb or sig == signal.SIGKILL else ""
        return _failure(f"killed by signal {sig} ({name}{hint})", stderr_tail, seconds)
    if code == 0 and message is not None and message.get("ok") is True:
        return {"ok": True, "result": message.get("result"), "seconds": seconds}
    error = message.get("error") if message else None
    if error:
        detail = f"{error.get('type')}: {error.get('message')}".strip().rstrip(":")
    else:
        detail = " | ".join(line.strip() for line in stderr_tail[-3:] if line.strip())
        if code == 0:
            detail = "no result on stdout" + (f" ({detail})" if detail else "")
    if memory_mb and any(word in (detail + stderr_text[-2000:]).lower() for word in _MEMORY_WORDS):
        detail += " (memory limit?)"
    result = _failure(f"exited with code {code}: {_one_line(detail)}", stderr_tail, seconds)
    if error:
        result["error"] = error
    return result


def _failure(reason: str, stderr_tail: list[str], seconds: float) -> dict[str, Any]:
    return {"ok": False, "reason": reason, "stderr_tail": stderr_tail, "seconds": seconds}


def _one_line(text: str, limit: int = 500) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _parse_message(data: bytes) -> dict[str, Any] | None:
    text = data.decode("utf-8", "replace").strip()
    if not text:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _apply_memory_limit() -> None:
    """In the child, first thing: cap the address space (RLIMIT_AS) at the requested size.

    Done here rather than in a `preexec_fn`, which would run Python between fork and exec and is
    unsafe when the parent is multithreaded (as it is once JAX is imported there).
    """
    value = os.environ.pop(MEMORY_ENV, "")
    if not value:
        return
    import resource

    limit = int(value) * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, OSError):
        pass


def _feed(pipe: Any, data: bytes) -> None:
    try:
        pipe.write(data)
        pipe.close()
    except (BrokenPipeError, OSError, ValueError):
        pass


def _drain(pipe: Any, chunks: list[bytes], echo: bool, keep: int | None) -> None:
    """Read a pipe to EOF; keep only the last `keep` bytes (a chatty child cannot fill our memory)."""
    stream = getattr(sys.stderr, "buffer", None) if echo else None
    kept = 0
    try:
        while True:
            chunk = pipe.read1(65536) if hasattr(pipe, "read1") else pipe.read(65536)
            if not chunk:
                break
            chunks.append(chunk)
            kept += len(chunk)
            while keep is not None and kept > keep and len(chunks) > 1:
                kept -= len(chunks.pop(0))
            if stream is not None:
                try:
                    stream.write(chunk)
                    stream.flush()
                except (OSError, ValueError):
                    stream = None
    except (OSError, ValueError):
        pass


def to_jsonable(value: Any) -> Any:
    """JSON-safe copy: NumPy scalars and arrays become Python numbers and lists; the rest `str`."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_jsonable(v) for v in value]
    if hasattr(value, "tolist") and callable(value.tolist):
        try:
            return to_jsonable(value.tolist())
        except Exception:
            pass
    if isinstance(value, Path):
        return str(value)
    return str(value)


_PACKAGE_DIR = str(Path(__file__).resolve().parents[1]) + os.sep


def user_traceback(exc: BaseException) -> str:
    """The traceback without jaxlint's own frames (the sandbox, the worker): what is left is
    the user's code and the libraries it called, which is what a failure report needs."""
    tb = traceback.TracebackException.from_exception(exc)
    for current in _chain(tb):
        kept = [f for f in current.stack if not f.filename.startswith(_PACKAGE_DIR)]
        current.stack = traceback.StackSummary.from_list(kept)
    return "".join(tb.format())


def _chain(tb: traceback.TracebackException) -> list[traceback.TracebackException]:
    out, seen = [], set()
    current: traceback.TracebackException | None = tb
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        out.append(current)
        current = current.__cause__ or current.__context__
    return out


def serve(target: str, payload: Any, result_stream: Any) -> int:
    """Run `target` on `payload`, write one JSON object to `result_stream`; the exit code."""
    code = 0
    try:
        module_name, _, func_name = target.partition(":")
        func = getattr(importlib.import_module(module_name), func_name)
        message: dict[str, Any] = {"ok": True, "result": to_jsonable(func(payload))}
    except BaseException as exc:  # report everything, including SystemExit from user code
        from jaxlint.core.errors import UsageError

        code = USAGE_ERROR_EXIT if isinstance(exc, UsageError) else 1
        trace = user_traceback(exc)
        if code == 1:
            sys.stderr.write(trace)
        message = {
            "ok": False,
            "error": {"type": type(exc).__name__, "message": str(exc), "traceback": trace[-8000:]},
        }
    result_stream.write(json.dumps(message))
    result_stream.flush()
    sys.stderr.flush()
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass
    return code


def main() -> int:
    """Child entry point: read the request on stdin, run the target, write one JSON object."""
    _apply_memory_limit()
    result_stream = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # user prints and library chatter go to stderr from now on
    try:
        request = json.loads(sys.stdin.read())
        code = serve(request["target"], request["payload"], result_stream)
    except BaseException as exc:  # a malformed request
        result_stream.write(
            json.dumps({"ok": False, "error": {"type": type(exc).__name__, "message": str(exc)}})
        )
        result_stream.flush()
        code = 1
    # Skip interpreter teardown: atexit hooks in user code or runtimes could still hang or crash.
    os._exit(code)


def _zygote_for(env: Mapping[str, str], memory_mb: int | None, echo: bool) -> Any:
    """The fork server of the current `forkserver.forking()` block, locked, when this child
    can be forked from it (no memory limit, no echo, the same import-time environment)."""
    if memory_mb or echo:
        return None
    from jaxlint.runtime import forkserver

    return forkserver.server_for(env)


if __name__ == "__main__":
    main()
