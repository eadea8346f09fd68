"""Hand planned jobs to the sandbox: as few children as possible, and survive one that dies.

Jobs that cannot run get their `could-not-run` result here; the rest are grouped by the number of
(simulated) devices they need and shared out by file over `parallel` children. Each child runs
`runtime.runner.worker` under `sandbox.run_isolated` and appends every result to a progress file,
so when it crashes or hangs the finished results are kept, the job it was on becomes
`could-not-run` with the reason, and the rest run in a new child. No JAX import here.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from typing import Any

from jaxlint.core.errors import UsageError

DEFAULT_TIMEOUT = 60.0
STARTUP_SECONDS = 60.0  # child start-up (importing JAX) on top of the per-finding budget


# --------------------------------------------------------------------------- running jobs


def child_env(devices: int | None) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("JAX_PLATFORMS", "cpu")
    if devices and env.get("JAX_PLATFORMS", "cpu") == "cpu":
        flag = f"--xla_force_host_platform_device_count={devices}"
        flags = env.get("XLA_FLAGS", "")
        if "xla_force_host_platform_device_count" not in flags:
            env["XLA_FLAGS"] = f"{flags} {flag}".strip()
    return env


def run_jobs(
    jobs: Sequence[dict[str, Any]],
    *,
    timeout: float = DEFAULT_TIMEOUT,
    memory_mb: int | None = None,
    echo: bool = False,
    parallel: int = 1,
) -> tuple[dict[int, dict[str, Any]], dict[str, Any]]:
    """Run jobs in as few children as possible (`parallel` children at a time, each with its share
    of the jobs); returns ({job id: result}, environment)."""
    from concurrent.futures import ThreadPoolExecutor

    results: dict[int, dict[str, Any]] = {}
    env: dict[str, Any] = {}
    runnable = []
    for job in jobs:
        reason = job.get("error") or ("no verifier" if not job.get("kinds") else None)
        if reason is None and _needs_an_entry_it_lacks(job):
            reason = job["entry_error"]  # every kind would say so: no child, no JAX import
        if reason is not None:
            results[job["id"]] = {
                "id": job["id"],
                "verdict": "could-not-run",
                "reason": reason,
                "evidence": {},
                "seconds": 0.0,
            }
        else:
            runnable.append(job)
    groups: dict[int | None, list[dict[str, Any]]] = {}
    for job in runnable:
        groups.setdefault(job.get("devices"), []).append(job)
    chunks: list[tuple[int | None, list[dict[str, Any]]]] = []
    for devices, group in groups.items():
        for part in _split_by_file(group, parallel):
            chunks.append((devices, part))
    with ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
        futures = [
            (devices, pool.submit(_run_group, part, timeout, memory_mb, child_env(devices), echo))
            for devices, part in chunks
        ]
        for devices, future in futures:
            got, info = future.result()
            results.update(got)
            if info and (not env or devices is None):
                env = info
    return results, env


# kinds that decide without calling the user's code (the runner's NO_ENTRY_KINDS)
_NO_ENTRY_KINDS = {"import"}


def _needs_an_entry_it_lacks(job: dict[str, Any]) -> bool:
    """No way to run the flagged code was found and every kind needs one: the child would
    only say so, after paying for a process and importing JAX (seconds)."""
    return (
        job.get("entry") is None
        and bool(job.get("entry_error"))
        and not (set(job.get("kinds") or ()) & _NO_ENTRY_KINDS)
    )


def _split_by_file(jobs: list[dict[str, Any]], parts: int) -> list[list[dict[str, Any]]]:
    """Up to `parts` shares of about equal size; the jobs of one file stay in one share (they
    reuse its executed module)."""
    files: dict[str, list[dict[str, Any]]] = {}
    for job in jobs:
        files.setdefault(job.get("file", ""), []).append(job)
    shares: list[list[dict[str, Any]]] = [[] for _ in range(max(1, min(parts, len(files))))]
    for group in sorted(files.values(), key=len, reverse=True):
        min(shares, key=len).extend(group)
    return [share for share in shares if share]


def _run_group(
    jobs: list[dict[str, Any]],
    timeout: float,
    memory_mb: int | None,
    env: dict[str, str],
    echo: bool,
) -> tuple[dict[int, dict[str, Any]], dict[str, Any]]:
    from jaxlint.runtime.sandbox import run_isolated

    results: dict[int, dict[str, Any]] = {}
    info: dict[str, Any] = {}
    pending = list(jobs)
    while pending:
        fd, progress = tempfile.mkstemp(prefix="jaxlint-verify-", suffix=".jsonl")
        os.close(fd)
        try:
            budget = STARTUP_SECONDS + timeout * len(pending) * 2.5
            outcome = run_isolated(
                "jaxlint.runtime.runner:worker",
                {"jobs": pending, "timeout": timeout, "progress": progress},
                timeout=budget,
                memory_mb=memory_mb,
                default_platforms=None,
                env=env,
                echo_stderr=echo,
            )
            done, started, hung = _read_progress(progress)
        finally:
            try:
                os.unlink(progress)
            except OSError:
                pass
        if outcome.get("ok"):
            payload = outcome["result"]
            info = {k: v for k, v in payload.items() if k != "results"}
            for result in payload["results"]:
                results[result["id"]] = result
            break
        results.update(done)
        crashed = [jid for jid in started if jid not in done]
        reason = outcome.get("reason", "the verifier process failed")
        error = outcome.get("error") or {}
        if error.get("type") in ("UsageError", "JaxMissingError"):
            raise UsageError(error.get("message", "usage error"))
        if not started:  # it died before the first job: every job would fail the same way
            for job in pending:
                results[job["id"]] = {
                    "id": job["id"],
                    "verdict": "could-not-run",
                    "reason": f"the verifier process could not start: {reason}",
                    "evidence": {"stderr_tail": outcome.get("stderr_tail", [])[-8:]},
                    "seconds": None,
                }
            break
        for jid in crashed or [pending[0]["id"]]:
            why = (
                f"hung: no result after {hung[jid]:g} s, and the time limit could not interrupt it"
                if jid in hung
                else f"the code crashed or hung the verifier: {reason}"
            )
            results[jid] = {
                "id": jid,
                "verdict": "could-not-run",
                "reason": why,
                "evidence": {"stderr_tail": outcome.get("stderr_tail", [])[-8:]},
                "seconds": None,
            }
        remaining = [job for job in pending if job["id"] not in results]
        if len(remaining) >= len(pending):  # no progress at all: stop rather than loop
            for job in remaining:
                results[job["id"]] = {
                    "id": job["id"],
                    "verdict": "could-not-run",
                    "reason": f"the verifier process failed: {reason}",
                    "evidence": {},
                    "seconds": None,
                }
            break
        pending = remaining
    return results, info


def _read_progress(path: str) -> tuple[dict[int, dict[str, Any]], list[int], dict[int, float]]:
    done: dict[int, dict[str, Any]] = {}
    started: list[int] = []
    hung: dict[int, float] = {}
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                try:
                    item = json.loads(line)
                except ValueError:
                    continue
                if "started" in item:
                    started.append(item["started"])
                elif "hung" in item:
                    hung[item["hung"]] = float(item.get("seconds") or 0)
                elif "result" in item:
                    done[item["result"]["id"]] = item["result"]
    except OSError:
        pass
    return done, started, hung
