"""One instrumented run of a script's top-level code, shared by every module-level timing check.

A finding at module level (a timed region in a benchmark script, a compile inside it) is checked
by running the script's top-level statements. The `bench` kind needs the user's clock reads,
`compiles` the compile events and line hits, the fix check the arrays the script leaves behind:
one run records all of them (`ScriptRun`), cached per source text in the child, so JAX601 and
JAX602 on a script (and the original's values the fix check compares with) cost one run of the
script, not one per finding and kind. A timed region is then repeated on its own (`bench`) for
steady-state medians. Runs in the sandboxed child only.
"""

from __future__ import annotations

import logging
from typing import Any

from jaxlint.runtime.entry import UserModule
from jaxlint.runtime.side import Probe, Side

_RUNS: dict[tuple[str, int, bool], ScriptRun] = {}
KEEP = 4  # sources whose run is kept (the original, its fixed and unmasked versions)


class ScriptRun:
    """The script's top-level statements run once with the user's clocks wrapped (`bench.Clock`),
    compile events and the finding lines' hits recorded (`Probe`), and JAX's cache-miss
    explanations collected; `values` are the arrays it defined, taken right after the run."""

    def __init__(self, side: Side) -> None:
        import jax

        from jaxlint.runtime.clock import Clock
        from jaxlint.runtime.toolbox.recompile import _clean_miss, _Records

        self.filename = side.filename
        self.clock = Clock(side.filename)
        watch = sorted(set(side.lines) | {o["line"] for o in side.others})
        self.probe = Probe(side.filename, lines=watch, trace_lines=True)
        self.mod: UserModule = side.module()
        handler = _Records()
        loggers = [logging.getLogger(n) for n in ("jax", "jax._src.interpreters.partial_eval")]
        previous = bool(jax.config.jax_explain_cache_misses)
        jax.config.update("jax_explain_cache_misses", True)
        for logger in loggers:
            logger.addHandler(handler)
        try:
            with self.clock.installed(), self.probe:
                self.mod.execute()
        finally:
            for logger in loggers:
                logger.removeHandler(handler)
            jax.config.update("jax_explain_cache_misses", previous)
        self.miss_reasons = _clean_miss(handler.take())
        self.reads_end = len(self.clock.reads)
        self.values = _array_values(self.mod.namespace)
        self.regions: dict[tuple[int, ...], dict[str, Any]] = {}
        self.mod.close()

    @property
    def errors(self) -> list[dict[str, Any]]:
        return self.mod.errors

    def reopen(self) -> UserModule:
        """The executed module, registered again (the runner forgets user modules between
        checks), to repeat a region in its namespace."""
        import sys

        sys.modules[self.mod.name] = self.mod.module
        return self.mod


def script_run(side: Side) -> ScriptRun:
    """The run of `side`'s source (made on first use; one per source text and `__main__` mode)."""
    run_main = bool((side.entry_spec or {}).get("run_main"))
    key = (side.filename, hash(side.source), run_main)
    run = _RUNS.get(key)
    if run is None:
        from jaxlint.runtime.kit import SCRIPT_VALUES

        run = ScriptRun(side)
        _RUNS[key] = run
        SCRIPT_VALUES[key] = (run.values, run.errors)  # the fix check's original values
        while len(_RUNS) > KEEP:
            SCRIPT_VALUES.pop(next(iter(_RUNS)), None)
            _RUNS.pop(next(iter(_RUNS)))
    return run


def _array_values(namespace: dict[str, Any]) -> dict[str, Any]:
    """The module's array-valued names (pytrees of arrays and numbers), containers copied so a
    region repeated afterwards cannot change them."""
    import jax
    import numpy as np

    values = {}
    for name, value in list(namespace.items()):
        if name.startswith("__"):
            continue
        try:
            leaves = jax.tree.leaves(value) if isinstance(value, (list, tuple, dict)) else [value]
        except Exception:
            continue
        if leaves and all(
            isinstance(v, (jax.Array, np.ndarray, np.generic, bool, int, float, complex))
            for v in leaves
        ):
            try:
                values[name] = jax.tree.map(lambda v: v, value)
            except Exception:
                continue
    return values
