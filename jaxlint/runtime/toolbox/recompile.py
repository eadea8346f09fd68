"""`jaxlint recompile`: which calls of one jitted function compile again, and why.

Every case goes through ONE `jax.jit` wrapper, after `jax.clear_caches()`, so the first case always
compiles and a later case compiles only when its abstract signature (shapes, dtypes, weak types,
static values, pytree structure) is new. Backend compiles are counted with JAX's monitoring event
`/jax/core/compile/backend_compile_duration`; the reason for each miss is JAX's own explanation
(`jax_explain_cache_misses`), captured from its log.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Sequence
from typing import Any

from jaxlint.runtime.toolbox.inputs import describe_value, short_dtype

BACKEND_COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"
TRACE_EVENT = "/jax/core/compile/jaxpr_trace_duration"
_MISS_LOGGERS = ("jax", "jax._src.interpreters.partial_eval")


class _Records(logging.Handler):
    """Collects WARNING records once each (the same record can reach two of our loggers)."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.seen: set[int] = set()
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if id(record) in self.seen:
            return
        self.seen.add(id(record))
        try:
            self.messages.append(record.getMessage())
        except Exception:  # a malformed record must not break the count
            pass

    def take(self) -> list[str]:
        messages, self.messages, self.seen = self.messages, [], set()
        return messages


def _clean_miss(messages: list[str]) -> str | None:
    """JAX's cache-miss explanations without the 'at file:line' header, each once."""
    parts: list[str] = []
    for message in messages:
        if "CACHE MISS" not in message:
            continue
        lines = [line.strip() for line in message.splitlines()[1:] if line.strip()]
        text = re.sub(r"(\S)(https?://)", r"\1 \2", "\n".join(lines))
        if text and text not in parts:
            parts.append(text)
    return "\n".join(parts) or None


class CompileCounter:
    """Counts JAX trace and backend-compile events while active (a context manager).

    JAX's monitoring listeners are process-global, so this sees every compile in the process,
    including ones for fresh `jax.jit(lambda ...)` wrappers that `_cache_size()` cannot see.
    """

    def __init__(self) -> None:
        self.events: list[str] = []
        self._active = False

    def _listener(self, event: str, duration: float, **_: Any) -> None:
        if self._active:
            self.events.append(event)

    @property
    def compiles(self) -> int:
        return self.events.count(BACKEND_COMPILE_EVENT)

    @property
    def traces(self) -> int:
        return self.events.count(TRACE_EVENT)

    def reset(self) -> None:
        self.events.clear()

    def start(self) -> None:
        import jax

        self._active = True
        jax.monitoring.register_event_duration_secs_listener(self._listener)

    def stop(self) -> None:
        import jax

        self._active = False  # JAX < 0.7 cannot unregister: the listener goes quiet instead
        unregister = getattr(jax.monitoring, "unregister_event_duration_listener", None)
        if unregister is not None:
            unregister(self._listener)

    def __enter__(self) -> CompileCounter:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def count_compiles(
    fn: Callable[..., Any],
    cases: Sequence[Sequence[Any]],
    static_argnames: Sequence[str] = (),
    *,
    static_argnums: Sequence[int] = (),
    labels: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Call one fresh `jax.jit(fn)` on each tuple of positional args in `cases`; count compiles.

    Returns `cases` (per case: `args` label, `compiled`, `compiles`, `seconds`, `miss_reason`,
    `signature`, `error`), total `compiles` and `traces`, distinct `signatures`, and `warnings`
    explaining the recompiles (weak-type flips, dtype drift, shape and static-value changes).
    """
    import jax

    from jaxlint.runtime.toolbox.loader import parameter_names

    names = parameter_names(fn)
    unknown = [n for n in static_argnames if n not in names]
    if unknown:
        raise ValueError(f"static_argnames not among the parameters {names}: {unknown}")
    static_nums = set(static_argnums) | {names.index(n) for n in static_argnames}
    jax.block_until_ready([a for case in cases for a in case])  # inputs ready before we count
    jax.clear_caches()
    jitted = jax.jit(fn, static_argnums=tuple(sorted(static_nums)))

    counter = CompileCounter()
    handler = _Records()
    loggers = [logging.getLogger(name) for name in _MISS_LOGGERS]
    previous_explain = bool(jax.config.jax_explain_cache_misses)
    jax.config.update("jax_explain_cache_misses", True)
    counter.start()
    for logger in loggers:
        logger.addHandler(handler)
    results: list[dict[str, Any]] = []
    try:
        for i, args in enumerate(cases):
            counter.reset()
            handler.take()
            error = None
            start = time.perf_counter()
            try:
                jax.block_until_ready(jitted(*args))
            except Exception as exc:
                error = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
            seconds = time.perf_counter() - start
            compiles = counter.compiles
            results.append(
                {
                    "args": labels[i] if labels else _signature(args, static_nums, names),
                    "compiled": compiles > 0,
                    "compiles": compiles,
                    "traces": counter.traces,
                    "seconds": seconds,
                    "miss_reason": _clean_miss(handler.take()) if compiles or error else None,
                    "signature": _signature(args, static_nums, names),
                    "error": error,
                }
            )
    finally:
        counter.stop()
        for logger in loggers:
            logger.removeHandler(handler)
        jax.config.update("jax_explain_cache_misses", previous_explain)
    return {
        "cases": results,
        "compiles": sum(r["compiles"] for r in results),
        "traces": sum(r["traces"] for r in results),
        "signatures": list(dict.fromkeys(r["signature"] for r in results)),
        "warnings": drift_warnings(cases, static_nums, names),
    }


def _describe_arg(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_describe_arg(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)) and not hasattr(value, "shape"):
        inner = ", ".join(_describe_arg(v) for v in value)
        return (
            f"[{inner}]"
            if isinstance(value, list)
            else f"({inner}{',' if len(value) == 1 else ''})"
        )
    return describe_value(value)


def _signature(args: Sequence[Any], static: set[int], names: list[str]) -> str:
    parts = []
    for i, value in enumerate(args):
        label = names[i] if i < len(names) else f"arg{i}"
        parts.append(f"{label}={value!r}" if i in static else _describe_arg(value))
    return "(" + ", ".join(parts) + ")"


def _kind(value: Any) -> tuple[str, Any, Any, bool]:
    """(kind, dtype, shape, weak) of one positional argument."""
    if isinstance(value, (bool, int, float, complex)):
        return "scalar", f"python {type(value).__name__}", (), True
    if hasattr(value, "shape") and hasattr(value, "dtype"):
        return (
            "array",
            short_dtype(value.dtype),
            tuple(value.shape),
            bool(getattr(value, "weak_type", False)),
        )
    return "other", None, None, False


def drift_warnings(cases: Sequence[Sequence[Any]], static: set[int], names: list[str]) -> list[str]:
    """Explain, per argument, what changes across cases in a way that forces a new compile."""
    warnings: list[str] = []
    width = max((len(c) for c in cases), default=0)
    if len({len(c) for c in cases}) > 1:
        warnings.append(
            "the number of arguments changes across cases: each arity compiles separately"
        )
    for i in range(width):
        label = names[i] if i < len(names) else f"arg{i}"
        values = [(n + 1, c[i]) for n, c in enumerate(cases) if i < len(c)]
        if i in static:
            distinct = list(dict.fromkeys(repr(v) for _, v in values))
            if len(distinct) > 1:
                warnings.append(
                    f"static argument `{label}` changes value ({', '.join(distinct)}): "
                    "every new static value is a new compile"
                )
            continue
        kinds = [(case, _kind(v)) for case, v in values]
        scalars = [case for case, k in kinds if k[0] == "scalar"]
        arrays = [(case, k) for case, k in kinds if k[0] == "array"]
        if scalars and arrays:
            warnings.append(
                f"weak-type flip at `{label}`: a Python scalar in case {scalars[0]} but an array "
                f"({arrays[0][1][1]}[{','.join(map(str, arrays[0][1][2]))}]) in case {arrays[0][0]}; "
                "Python scalars are weakly typed and compile separately — pass one form"
            )
        weak = {k[3] for _, k in arrays}
        if len(weak) > 1:
            warnings.append(
                f"weak-type flip at `{label}`: weakly and strongly typed arrays both appear"
            )
        dtypes = list(dict.fromkeys(str(k[1]) for _, k in kinds if k[0] != "other"))
        if len(dtypes) > 1:
            warnings.append(f"dtype drift at `{label}`: {', '.join(dtypes)} across cases")
        shapes = list(dict.fromkeys(k[2] for _, k in arrays))
        if len(shapes) > 1:
            shown = ", ".join("[" + ",".join(map(str, s)) + "]" for s in shapes)
            warnings.append(
                f"shape change at `{label}`: {shown}; each new shape compiles again "
                "(pad to a few bucket sizes, or mark it static if it is configuration)"
            )
        others = [v for _, v in values if _kind(v)[0] == "other"]
        structures = list(dict.fromkeys(_describe_arg(v) for v in others))
        if len(structures) > 1:
            warnings.append(
                f"pytree structure or leaves change at `{label}`: {', '.join(structures)}"
            )
    return warnings


def run(payload: dict[str, Any]) -> dict[str, Any]:
    """Sandbox worker for `jaxlint recompile`."""
    from jaxlint.runtime.toolbox.inputs import materialize, parse_specs
    from jaxlint.runtime.toolbox.loader import check_arity, load_function, static_argnums_for

    fn = load_function(payload["function"])
    case_texts: list[str] = list(payload.get("cases") or [])
    case_specs = [parse_specs(text) for text in case_texts]
    for i, specs in enumerate(case_specs):
        check_arity(fn, len(specs), f"--case {i + 1}")
    static: set[int] = set()
    for specs in case_specs:
        static |= set(static_argnums_for(fn, specs, payload.get("static")))
    seed = int(payload.get("seed", 0))
    cases = [materialize(specs, seed=seed) for specs in case_specs]
    result = count_compiles(fn, cases, static_argnums=sorted(static), labels=case_texts)
    return {"function": payload["function"], **result}
