"""The sandbox contains hangs, crashes and memory blow-ups, and never lets the parent hang."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from jaxlint.runtime.sandbox import run_isolated

HERE = Path(__file__).resolve().parent


@pytest.fixture(autouse=True)
def _targets_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    paths = [str(HERE), os.environ.get("PYTHONPATH", "")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in paths if p))


def test_success_returns_result_and_defaults_platform(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JAX_PLATFORMS", raising=False)
    outcome = run_isolated("sandbox_targets:echo", {"x": [1, 2]}, timeout=30)
    assert outcome["ok"] is True
    assert outcome["result"] == {"echo": {"x": [1, 2]}, "platforms": "cpu"}


def test_jax_platforms_from_environment_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JAX_PLATFORMS", "tpu")
    outcome = run_isolated("sandbox_targets:echo", {}, timeout=30)
    assert outcome["result"]["platforms"] == "tpu"


def test_prints_in_worker_do_not_corrupt_the_result() -> None:
    outcome = run_isolated("sandbox_targets:noisy", {}, timeout=30)
    assert outcome == {"ok": True, "result": 42, "seconds": outcome["seconds"]}


def test_timeout_kills_the_process_group(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    start = time.monotonic()
    outcome = run_isolated("sandbox_targets:spawn_and_hang", {"pid_file": str(pid_file)}, timeout=3)
    assert time.monotonic() - start < 20
    assert outcome["ok"] is False
    assert outcome["reason"] == "timed out after 3.0 s"
    grandchild = int(pid_file.read_text())
    for _ in range(50):  # reparented to init and reaped shortly after the kill
        try:
            os.kill(grandchild, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail("the worker's own child survived the timeout")


def test_plain_timeout_reason() -> None:
    outcome = run_isolated("sandbox_targets:sleep_forever", {}, timeout=1.5)
    assert outcome["reason"] == "timed out after 1.5 s"


def test_exception_is_reported_with_type_and_message() -> None:
    outcome = run_isolated("sandbox_targets:raise_error", {}, timeout=30)
    assert outcome["ok"] is False
    assert outcome["reason"] == "exited with code 1: ValueError: boom from the worker"
    assert outcome["error"]["type"] == "ValueError"
    assert "Traceback" in outcome["error"]["traceback"]


def test_hard_exit_reports_code_and_last_stderr_lines() -> None:
    outcome = run_isolated("sandbox_targets:exit_with", {"code": 7}, timeout=30)
    assert outcome["reason"] == "exited with code 7: about to exit | last words"


def test_signal_death_is_reported() -> None:
    outcome = run_isolated("sandbox_targets:kill_self", {}, timeout=30)
    assert outcome["reason"] == "killed by signal 9 (SIGKILL; memory limit?)"


def test_memory_limit_stops_a_big_allocation() -> None:
    outcome = run_isolated("sandbox_targets:allocate", {"mb": 2048}, timeout=30, memory_mb=400)
    assert outcome["ok"] is False
    assert outcome["reason"].startswith(("exited with code 1: MemoryError", "killed by signal"))
    assert "memory limit?" in outcome["reason"]
    small = run_isolated("sandbox_targets:allocate", {"mb": 16}, timeout=30, memory_mb=400)
    assert small["ok"] is True and small["result"] == 16 * 1024 * 1024


def test_missing_target_is_an_error_not_a_hang() -> None:
    outcome = run_isolated("sandbox_targets:no_such_function", {}, timeout=30)
    assert outcome["ok"] is False
    assert "AttributeError" in outcome["reason"]


def test_malformed_target_is_rejected_in_the_parent() -> None:
    with pytest.raises(ValueError):
        run_isolated("no_colon_here", {}, timeout=5)
