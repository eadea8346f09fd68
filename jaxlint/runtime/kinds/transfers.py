"""Verifier kind `transfers`: run the flagged code under `jax.transfer_guard("disallow")`.

Inputs are put on the device before the guard is switched on; for module-level code the guard is
only on while the top-level statement holding the flagged line runs. An implicit host-to-device
transfer on the flagged line (a NumPy array or list handed to JAX, a Python scalar argument of a
jitted function, Python-int indexing) raises `Disallowed host-to-device transfer`. On CPU only
host-to-device transfers are guarded; device-to-host checks need a GPU/TPU backend.
"""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Iterator
from typing import Any

from jaxlint.runtime.kit import (
    Outcome,
    confirmed,
    describe_exception,
    not_reproduced,
    short_message,
    stopped,
)
from jaxlint.runtime.side import Side

CONVERTERS = (("jax", "device_put"), ("jax.numpy", "asarray"), ("jax.numpy", "array"))


@contextlib.contextmanager
def recording(filename: str) -> Iterator[list[dict[str, Any]]]:
    """Record `jax.device_put` / `jnp.asarray` / `jnp.array` calls on host data from the user's file."""
    import importlib

    import jax
    import numpy as np

    seen: list[dict[str, Any]] = []
    saved = []
    for module_name, attr in CONVERTERS:
        owner = importlib.import_module(module_name)
        original = getattr(owner, attr)

        def wrapper(
            *args: Any,
            __original: Any = original,
            __name: str = f"{module_name}.{attr}",
            **kwargs: Any,
        ) -> Any:
            out = __original(*args, **kwargs)
            caller = sys._getframe(1)
            if caller.f_code.co_filename == filename and args:
                leaves = jax.tree.leaves(args[0])
                host = [
                    x
                    for x in leaves
                    if isinstance(x, (np.ndarray, np.generic, int, float, complex))
                ]
                if host and not any(isinstance(x, jax.Array) for x in leaves):
                    nbytes = sum(int(np.asarray(x).nbytes) for x in host)
                    seen.append({"fn": __name, "line": caller.f_lineno, "bytes": nbytes})
            return out

        functools.update_wrapper(wrapper, original)
        saved.append((owner, attr, original))
        setattr(owner, attr, wrapper)
    try:
        yield seen
    finally:
        for owner, attr, original in saved:
            setattr(owner, attr, original)


def _recorded(side: Side) -> tuple[list[dict[str, Any]], str, list[str]]:
    errors: list[str] = []
    with recording(side.filename) as seen:
        if side.mode == "module":
            mod = side.run_module()
            ran = "module top-level code"
            errors = [f"line {r['at_line']}: {type(r['exc']).__name__}" for r in mod.errors]
        else:
            entry = side.entry()
            ran = entry.describe()
            try:
                entry.run()
            except Exception as exc:
                errors.append(f"{type(exc).__name__}: {short_message(exc)}")
    return seen, ran, errors


def _is_transfer(info: dict[str, Any]) -> bool:
    return "Disallowed" in info["message"] and "transfer" in info["message"]


def check(side: Side) -> Outcome:
    import jax

    seen, ran_recorded, run_errors = _recorded(side)
    here = [s for s in seen if s["line"] in side.lines]
    if here:
        total = sum(s["bytes"] for s in here)
        return confirmed(
            f"line {here[0]['line']} copied host data to the device {len(here)} time(s) "
            f"({here[0]['fn']}, {total} bytes in all)",
            transfers=len(here),
            transfer_bytes=total,
            converter=here[0]["fn"],
            ran=ran_recorded,
        )
    errors: list[BaseException] = []
    if side.mode == "module":
        mod = side.module()
        target = mod.statement_at(side.line)

        def around(stmt: Any) -> Any:
            return jax.transfer_guard("disallow") if stmt is target else contextlib.nullcontext()

        try:
            mod.execute(around=around)
        finally:
            mod.close()
        errors = [r["exc"] for r in mod.errors if r["line"] == getattr(target, "lineno", None)]
        ran = "module top-level code"
    else:
        entry = side.entry()
        ran = entry.describe()
        try:
            with jax.transfer_guard("disallow"):
                entry.run()
        except Exception as exc:
            errors.append(exc)
    for exc in errors:
        info = describe_exception(exc, side.filename)
        if _is_transfer(info):
            where = info.get("at_line")
            if where in side.lines or where is None:
                return confirmed(
                    f"line {where}: {info['message']}",
                    transfer_error=info["message"],
                    at_line=where,
                    ran=ran,
                )
            return not_reproduced(
                f"a transfer happened at line {where}, not at the flagged line",
                transfer_error=info["message"],
                at_line=where,
                ran=ran,
            )
        return stopped(side, exc, ran)
    backend = jax.default_backend()
    note = "" if backend != "cpu" else " (on CPU only host-to-device transfers are guarded)"
    return not_reproduced(
        f"no host-to-device transfer under transfer_guard('disallow'){note}",
        ran=ran,
        backend=backend,
    )
