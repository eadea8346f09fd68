"""The user's clocks, wrapped: what a timed region measures as written and blocked.

`Clock` records every clock read made from the user's file (`time.perf_counter` and friends:
the value the program sees, then the value after waiting for the arrays the reading frame
holds) and every `timeit.timeit` / `timeit.repeat` call (as written, warm, blocked). Used by the
`bench` kind and the shared script run (`script_run`); runs in the sandboxed child only.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator
from typing import Any

MODULE_REPEAT_SECONDS = 2.0  # re-timings stop once they took this long
_now = time.perf_counter  # the real clock: the user's clock reads are wrapped while measuring

CLOCKS = (
    "perf_counter",
    "perf_counter_ns",
    "time",
    "time_ns",
    "monotonic",
    "monotonic_ns",
    "process_time",
    "process_time_ns",
)


class Clock:
    """Records the user's clock reads (value seen, value after blocking) and timeit results."""

    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.reads: list[dict[str, Any]] = []
        self.timeits: list[dict[str, Any]] = []
        self.events: list[tuple[str, int]] = []  # ("read", index) / ("compile", n)

    def _block_frame(self, frame: Any) -> None:
        import jax

        pending = []
        try:
            items = list(frame.f_locals.items())
        except Exception:
            return
        for name, value in items:
            if isinstance(value, jax.Array):
                pending.append(value)
            elif (
                isinstance(value, (list, tuple, dict))
                and not name.startswith("__")
                and len(value) <= 1000
            ):
                try:
                    pending.extend(x for x in jax.tree.leaves(value) if isinstance(x, jax.Array))
                except Exception:
                    pass
        if pending:
            try:
                jax.block_until_ready(pending)
            except Exception:
                pass

    def wrap_clock(self, name: str, original: Any) -> Any:
        scale = 1e-9 if name.endswith("_ns") else 1.0

        def clock() -> Any:
            value = original()
            caller = sys._getframe(1)
            if caller.f_code.co_filename != self.filename:
                return value
            self._block_frame(caller)
            after = original()
            self.reads.append(
                {
                    "line": caller.f_lineno,
                    # top-level statements run as separate frames: one region
                    "frame": "<module>" if caller.f_code.co_name == "<module>" else id(caller),
                    "seen": value * scale,
                    "after": after * scale,
                }
            )
            self.events.append(("read", len(self.reads) - 1))
            return value

        return clock

    def wrap_timeit(self, original: Any) -> Any:
        import jax

        def timed(
            stmt: Any = "pass",
            setup: Any = "pass",
            timer: Any = None,
            number: int = 1000000,
            globals: Any = None,
            **kwargs: Any,
        ) -> Any:
            args = {"setup": setup, "number": number, "globals": globals, **kwargs}
            if timer is not None:
                args["timer"] = timer
            value = original(stmt, **args)
            caller = sys._getframe(1)
            if caller.f_code.co_filename == self.filename:
                record: dict[str, Any] = {"line": caller.f_lineno, "seen": value, "number": number}
                if callable(stmt):
                    # once more as written (the first call may have compiled: the warm time is
                    # the steady state), then blocked; the timeit call itself is not re-run.
                    # Each starts with the device idle: the work the unblocked calls queued
                    # would otherwise be charged to the next measurement
                    # (up to 3 rounds while they stay cheap; the fastest of each, as for
                    # clock reads: one slow round on a busy machine moves neither)
                    warm, blocked = [], []
                    started = _now()
                    for _ in range(3):
                        _drain(stmt)
                        warm.append(original(stmt, **args))
                        _drain(stmt)
                        blocked.append(original(lambda: jax.block_until_ready(stmt()), **args))
                        if _now() - started > MODULE_REPEAT_SECONDS:
                            break
                    record["warm"], record["blocked"] = min(warm), min(blocked)
                self.timeits.append(record)
            return value

        return timed

    def wrap_repeat(self, original: Any) -> Any:
        """`timeit.repeat`: the program sees its list; the region's time is the best repeat,
        as the program would read it (`min(times)`), as written and blocked."""
        import jax

        def timed(
            stmt: Any = "pass",
            setup: Any = "pass",
            timer: Any = None,
            repeat: int = 5,
            number: int = 1000000,
            globals: Any = None,
            **kwargs: Any,
        ) -> Any:
            args = {"setup": setup, "number": number, "globals": globals, **kwargs}
            if timer is not None:
                args["timer"] = timer
            value = original(stmt, repeat=repeat, **args)
            caller = sys._getframe(1)
            if caller.f_code.co_filename == self.filename and value:
                record: dict[str, Any] = {
                    "line": caller.f_lineno,
                    "seen": min(value),
                    "number": number,
                }
                if callable(stmt):
                    _drain(stmt)
                    again = original(
                        lambda: jax.block_until_ready(stmt()), repeat=min(repeat, 3), **args
                    )
                    record["blocked"] = min(again)
                self.timeits.append(record)
            return value

        return timed

    @contextlib.contextmanager
    def installed(self) -> Iterator[Clock]:
        import timeit

        saved: list[tuple[Any, str, Any]] = []
        for name in CLOCKS:
            original = getattr(time, name, None)
            if original is not None:
                saved.append((time, name, original))
                setattr(time, name, self.wrap_clock(name, original))
        saved.append((timeit, "timeit", timeit.timeit))
        saved.append((timeit, "repeat", timeit.repeat))
        timeit.timeit = self.wrap_timeit(timeit.timeit)
        timeit.repeat = self.wrap_repeat(timeit.repeat)
        try:
            yield self
        finally:
            for owner, name, original in saved:
                setattr(owner, name, original)


def _drain(stmt: Any) -> None:
    """Wait until the work queued by unblocked calls of `stmt` is done (one more call, blocked:
    a device runs its queue in order)."""
    import jax

    try:
        jax.block_until_ready(stmt())
    except Exception:
        pass
