"""Tiny worker functions for the sandbox tests (imported by the child process, never by pytest)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from typing import Any


def echo(payload: dict[str, Any]) -> dict[str, Any]:
    return {"echo": payload, "platforms": os.environ.get("JAX_PLATFORMS")}


def noisy(payload: dict[str, Any]) -> int:
    print("user code printing to stdout")
    sys.stdout.flush()
    return 42


def sleep_forever(payload: dict[str, Any]) -> None:
    time.sleep(1000)


def spawn_and_hang(payload: dict[str, Any]) -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)"])
    with open(payload["pid_file"], "w") as handle:
        handle.write(str(child.pid))
    time.sleep(1000)


def raise_error(payload: dict[str, Any]) -> None:
    raise ValueError("boom from the worker")


def exit_with(payload: dict[str, Any]) -> None:
    sys.stderr.write("about to exit\nlast words\n")
    sys.stderr.flush()
    os._exit(payload["code"])


def kill_self(payload: dict[str, Any]) -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def allocate(payload: dict[str, Any]) -> int:
    block = bytearray(payload["mb"] * 1024 * 1024)
    return len(block)


def devices(payload: dict[str, Any]) -> dict[str, Any]:
    """What a child sees of JAX: device count (XLA_FLAGS of its own environment), x64, the
    module state an earlier child may have set, and its pid."""
    import jax

    return {
        "devices": jax.device_count(),
        "x64": bool(jax.config.jax_enable_x64),
        "marked": bool(getattr(sys, "_jaxlint_test_mark", False)),
        "pid": os.getpid(),
    }


def dirty(payload: dict[str, Any]) -> bool:
    """Leave state behind: x64 on, a mark on sys, a computation compiled."""
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)
    sys._jaxlint_test_mark = True  # type: ignore[attr-defined]
    return bool(jnp.arange(3).sum() == 3)
