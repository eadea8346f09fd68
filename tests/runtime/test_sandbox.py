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


# ---------------------------------------------------------------- the fork server


def _x64_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JAX_ENABLE_X64", raising=False)
    monkeypatch.delenv("XLA_FLAGS", raising=False)


@pytest.mark.jax
def test_forked_children_are_isolated_and_take_their_own_xla_flags(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Inside `forking()`, children fork from one server (one JAX import) yet each is a
    process of its own: state one leaves (x64, a module attribute) is not seen by the next,
    and each child's XLA_FLAGS (a simulated device count) takes effect."""
    from jaxlint.runtime.forkserver import forking

    _x64_off(monkeypatch)
    with forking() as server:
        dirty = run_isolated("sandbox_targets:dirty", {}, timeout=60)
        assert dirty == {"ok": True, "result": True, "seconds": dirty["seconds"]}
        eight = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=8")
        many = run_isolated("sandbox_targets:devices", {}, timeout=60, env=eight)
        one = run_isolated("sandbox_targets:devices", {}, timeout=60)
        assert server.started == 3  # all three were forked, none started fresh
        assert server.proc is not None
        server_pid = server.proc.pid
    assert many["result"]["devices"] == 8
    assert one["result"]["devices"] == 1
    for seen in (many["result"], one["result"]):
        assert seen["x64"] is False and seen["marked"] is False
    assert len({many["result"]["pid"], one["result"]["pid"], server_pid, os.getpid()}) == 4
    assert server.proc is None  # the server ended with the block


@pytest.mark.jax
def test_forked_failures_read_as_fresh_ones_and_the_server_survives_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from jaxlint.runtime.forkserver import forking

    _x64_off(monkeypatch)
    pid_file = tmp_path / "pid"
    with forking() as server:
        hung = run_isolated(
            "sandbox_targets:spawn_and_hang", {"pid_file": str(pid_file)}, timeout=3
        )
        error = run_isolated("sandbox_targets:raise_error", {}, timeout=30)
        exited = run_isolated("sandbox_targets:exit_with", {"code": 7}, timeout=30)
        killed = run_isolated("sandbox_targets:kill_self", {}, timeout=30)
        noisy = run_isolated("sandbox_targets:noisy", {}, timeout=30)
        assert server.started == 5 and not server.broken
    assert hung["reason"] == "timed out after 3.0 s"
    grandchild = int(pid_file.read_text())
    for _ in range(50):
        try:
            os.kill(grandchild, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail("the forked child's own child survived the timeout")
    assert error["reason"] == "exited with code 1: ValueError: boom from the worker"
    assert "Traceback" in error["error"]["traceback"]
    assert exited["reason"] == "exited with code 7: about to exit | last words"
    assert killed["reason"] == "killed by signal 9 (SIGKILL; memory limit?)"
    assert noisy == {"ok": True, "result": 42, "seconds": noisy["seconds"]}


def test_a_child_the_server_cannot_stand_for_starts_fresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A different import-time environment (JAX reads JAX_ENABLE_X64 when imported) or a
    memory limit (it must hold JAX's own mappings) is a fresh child, and no server starts."""
    from jaxlint.runtime.forkserver import forking

    _x64_off(monkeypatch)
    with forking() as server:
        other = dict(os.environ, JAX_ENABLE_X64="1")
        fresh = run_isolated("sandbox_targets:echo", {"x": 1}, timeout=30, env=other)
        limited = run_isolated("sandbox_targets:allocate", {"mb": 16}, timeout=30, memory_mb=400)
        assert server.started == 0 and server.proc is None
    assert fresh["ok"] is True and fresh["result"]["echo"] == {"x": 1}
    assert limited["ok"] is True


def test_a_server_whose_block_ended_never_starts_again() -> None:
    """Blocks of two threads may end out of order and restore an ended server as the current
    one: it must not start a process nobody will end (a child then starts fresh)."""
    from jaxlint.runtime import forkserver

    with forkserver.forking() as outer:
        with forkserver.forking() as inner:
            assert forkserver.server_for(inner.env) is inner
            inner.lock.release()
        assert forkserver.server_for(outer.env) is outer
        outer.lock.release()
    assert forkserver.server_for(outer.env) is None
    assert not outer.accepts(outer.env) and outer.fork({}, 1.0) is None
    assert outer.proc is None and inner.proc is None
