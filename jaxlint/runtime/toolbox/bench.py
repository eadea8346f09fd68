"""`jaxlint bench`: an honest benchmark of one function (or two, side by side).

What "honest" means here, in order: the host-to-device transfer of the inputs is timed on its own;
tracing, lowering and compiling are timed separately through the AOT API on a fresh function
object (so an earlier trace in the same process cannot hide them); the first call is reported on
its own; then warm-up calls; then N steady-state calls, each ended by `jax.block_until_ready`
(JAX dispatches asynchronously: without it you time the dispatch, not the work). Donated inputs get
a fresh device copy before every call, outside the timed region. With `--compare`, the two
functions run alternately on the same inputs so drift (thermal, other load) hits both alike.
"""

from __future__ import annotations

import functools
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

PROGRESS_AFTER_SECONDS = 2.0


def summarize(times: Sequence[float]) -> dict[str, Any]:
    """Median, min, max, mean and inter-quartile range of per-call seconds."""
    ordered = sorted(times)
    if len(ordered) >= 2:
        q1, _, q3 = statistics.quantiles(ordered, n=4, method="inclusive")
    else:
        q1 = q3 = ordered[0] if ordered else 0.0
    return {
        "runs": len(ordered),
        "median_seconds": statistics.median(ordered) if ordered else None,
        "min_seconds": ordered[0] if ordered else None,
        "max_seconds": ordered[-1] if ordered else None,
        "mean_seconds": statistics.fmean(ordered) if ordered else None,
        "iqr_seconds": q3 - q1,
        "times_seconds": list(times),
    }


class _Progress:
    """A one-line bar on stderr, only on a TTY and only once the run is expected to exceed ~2 s."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total = total
        self.enabled = enabled and total > 0
        self.done = 0
        self.start = time.perf_counter()
        self.shown = False
        self.last_draw = 0.0

    def step(self, seconds_per_step: float) -> None:
        self.done += 1
        if not self.enabled:
            return
        now = time.perf_counter()
        expected = (now - self.start) + seconds_per_step * (self.total - self.done)
        if not self.shown and expected < PROGRESS_AFTER_SECONDS:
            return
        if now - self.last_draw < 0.1 and self.done < self.total:
            return
        self.shown = True
        self.last_draw = now
        width = 30
        filled = int(width * self.done / self.total)
        sys.stderr.write(
            f"\rbench [{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}"
        )
        sys.stderr.flush()

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r" + " " * 60 + "\r")
            sys.stderr.flush()


def _is_key(leaf: Any) -> bool:
    import jax

    dtype = getattr(leaf, "dtype", None)
    return dtype is not None and jax.dtypes.issubdtype(dtype, jax.dtypes.prng_key)


def _to_host(value: Any) -> Any:
    """NumPy copy of every array leaf (typed PRNG keys stay on device: they have no host form)."""
    import jax
    import numpy as np

    def leaf(x: Any) -> Any:
        if _is_key(x) or not hasattr(x, "shape"):
            return x
        return np.asarray(jax.device_get(x))

    return jax.tree.map(leaf, value)


def transfer_to_device(host_args: Sequence[Any], static: set[int]) -> tuple[list[Any], float]:
    """`jax.device_put` the non-static arguments and block: returns (device args, seconds)."""
    import jax

    def put(leaf: Any) -> Any:  # Python scalars stay Python: jit sees them as weakly typed
        return jax.device_put(leaf) if hasattr(leaf, "shape") and not _is_key(leaf) else leaf

    jax.block_until_ready(jax.device_put(0.0))  # backend start-up is not part of the transfer
    start = time.perf_counter()
    device_args = [a if i in static else jax.tree.map(put, a) for i, a in enumerate(host_args)]
    jax.block_until_ready([a for i, a in enumerate(device_args) if i not in static])
    return device_args, time.perf_counter() - start


class _Runner:
    """One function under test: compiled once, then called with fresh donated buffers each time."""

    def __init__(
        self,
        fn: Callable[..., Any],
        device_args: list[Any],
        *,
        jit: bool,
        static_argnums: Sequence[int],
        donate_argnums: Sequence[int],
    ) -> None:
        import jax

        self.args = device_args
        self.donate = set(donate_argnums) if jit else set()
        self.jit = jit
        self.times: list[float] = []
        self.result: dict[str, Any] = {
            "jit": jit,
            "trace_seconds": None,
            "lower_seconds": None,
            "compile_seconds": None,
        }

        @functools.wraps(fn)
        def fresh(*a: Any, **k: Any) -> Any:  # a new object: JAX's caches start empty for it
            return fn(*a, **k)

        if not jit:
            self.call: Callable[..., Any] = fn
            return
        self.call = jax.jit(
            fresh, static_argnums=tuple(static_argnums), donate_argnums=tuple(donate_argnums)
        )
        args = self.next_args()
        start = time.perf_counter()
        traced = self.call.trace(*args)
        self.result["trace_seconds"] = time.perf_counter() - start
        start = time.perf_counter()
        lowered = traced.lower()
        self.result["lower_seconds"] = time.perf_counter() - start
        start = time.perf_counter()
        lowered.compile()
        self.result["compile_seconds"] = time.perf_counter() - start

    def next_args(self) -> list[Any]:
        import jax

        if not self.donate:
            return self.args
        fresh = [
            jax.tree.map(_copy_leaf, a) if i in self.donate else a for i, a in enumerate(self.args)
        ]
        jax.block_until_ready(fresh)
        return fresh

    def timed_call(self) -> tuple[float, Any]:
        import jax

        args = self.next_args()
        start = time.perf_counter()
        out = self.call(*args)
        jax.block_until_ready(out)
        return time.perf_counter() - start, out


def _copy_leaf(x: Any) -> Any:
    return x.copy() if hasattr(x, "copy") and hasattr(x, "devices") else x


def _device_name() -> str:
    import jax

    device = jax.devices()[0]
    return f"{device.platform}:{device.id} ({device.device_kind})"


def benchmark(
    fn: Callable[..., Any],
    args: Sequence[Any],
    repeat: int = 20,
    warmup: int = 3,
    *,
    jit: bool = True,
    static_argnums: Sequence[int] = (),
    donate_argnums: Sequence[int] = (),
    compare_fn: Callable[..., Any] | None = None,
    compare_static_argnums: Sequence[int] | None = None,
    compare_donate_argnums: Sequence[int] | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Benchmark `fn(*args)`: transfer, trace, lower, compile, first call, then blocked steady state.

    With `compare_fn`, both run alternately on the same inputs and the result gains `compare`
    (the same timing keys for the second function), `ratio` (compare median / first median),
    `speedup` (first median / compare median) and `outputs_match` (allclose on the first outputs).
    `progress` draws a bar on stderr once the run looks longer than ~2 s; the caller decides
    whether stderr is a terminal (in the sandbox it is a pipe that the CLI forwards).
    """
    import jax

    static = set(static_argnums)
    host_args = [a if i in static else _to_host(a) for i, a in enumerate(args)]
    device_args, transfer_seconds = transfer_to_device(host_args, static)

    runners = [
        _Runner(
            fn, device_args, jit=jit, static_argnums=static_argnums, donate_argnums=donate_argnums
        )
    ]
    if compare_fn is not None:
        runners.append(
            _Runner(
                compare_fn,
                device_args,
                jit=jit,
                static_argnums=static_argnums
                if compare_static_argnums is None
                else compare_static_argnums,
                donate_argnums=donate_argnums
                if compare_donate_argnums is None
                else compare_donate_argnums,
            )
        )
    outputs = []
    for runner in runners:
        seconds, out = runner.timed_call()
        runner.result["first_call_seconds"] = seconds
        outputs.append(out)

    bar = _Progress(len(runners) * (warmup + repeat), progress)
    try:
        for _ in range(warmup):
            for runner in runners:
                seconds, _out = runner.timed_call()
                bar.step(seconds)
        for i in range(repeat):
            order = runners if i % 2 == 0 else runners[::-1]  # ABBA: no function always goes first
            for runner in order:
                seconds, _out = runner.timed_call()
                runner.times.append(seconds)
                bar.step(seconds)
    finally:
        bar.close()

    main = runners[0]
    result: dict[str, Any] = {
        "transfer_seconds": transfer_seconds,
        **main.result,
        **summarize(main.times),
        "warmup": warmup,
        "blocked": True,
        "device": _device_name(),
        "backend": jax.default_backend(),
    }
    if compare_fn is not None:
        other = runners[1]
        result["compare"] = {**other.result, **summarize(other.times)}
        first, second = result["median_seconds"], result["compare"]["median_seconds"]
        result["ratio"] = second / first if first else None
        result["speedup"] = first / second if second else None
        result["outputs_match"], result["max_abs_diff"] = outputs_match(outputs[0], outputs[1])
    return result


def outputs_match(a: Any, b: Any) -> tuple[bool | None, float | None]:
    """(allclose, max abs difference) of two output pytrees; (False, None) if structures differ."""
    import jax
    import numpy as np

    leaves_a, tree_a = jax.tree.flatten(a)
    leaves_b, tree_b = jax.tree.flatten(b)
    if tree_a != tree_b:
        return False, None
    worst = 0.0
    same = True
    for x, y in zip(leaves_a, leaves_b):
        if _is_key(x) or _is_key(y):
            x, y = jax.random.key_data(x), jax.random.key_data(y)
        x, y = np.asarray(x), np.asarray(y)
        if x.shape != y.shape:
            return False, None
        if x.size == 0:
            continue
        loose = x.dtype.itemsize <= 2 or y.dtype.itemsize <= 2
        xf, yf = (
            x.astype(np.complex128 if np.iscomplexobj(x) else np.float64),
            y.astype(np.complex128 if np.iscomplexobj(y) else np.float64),
        )
        rtol, atol = (1e-2, 1e-2) if loose else (1e-5, 1e-6)
        same = same and bool(np.allclose(xf, yf, rtol=rtol, atol=atol, equal_nan=True))
        diff = np.abs(xf - yf)
        finite = diff[np.isfinite(diff)]
        if finite.size:
            worst = max(worst, float(finite.max()))
    return same, worst


def run(payload: dict[str, Any]) -> dict[str, Any]:
    """Sandbox worker for `jaxlint bench`."""
    from jaxlint.runtime.toolbox.inputs import materialize
    from jaxlint.runtime.toolbox.loader import (
        argnums_for,
        load_call,
        load_function,
        static_argnums_for,
    )

    fn, specs, static, donate = load_call(payload)
    compare_fn = None
    compare_static = compare_donate = None
    if payload.get("compare"):
        compare_fn = load_function(payload["compare"])
        compare_static = static_argnums_for(compare_fn, specs, payload.get("static"))
        compare_donate = argnums_for(compare_fn, payload.get("donate"), "donate")
    args = materialize(specs, seed=int(payload.get("seed", 0)), on_device=False)
    result = benchmark(
        fn,
        args,
        repeat=int(payload.get("repeat", 20)),
        warmup=int(payload.get("warmup", 3)),
        jit=bool(payload.get("jit", True)),
        static_argnums=static,
        donate_argnums=donate,
        compare_fn=compare_fn,
        compare_static_argnums=compare_static,
        compare_donate_argnums=compare_donate,
        progress=bool(payload.get("progress", False)),
    )
    result = {"function": payload["function"], "args": [str(s) for s in specs], **result}
    if compare_fn is not None:
        result["compare"] = {"function": payload["compare"], **result["compare"]}
    return result
