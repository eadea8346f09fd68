"""One version of a job's source (`Side`) and what a run of it records (`Probe`).

A side is the original source, the source with this finding's fix applied, or with other
findings' fixes applied to get past them; every verifier kind (`kinds.*`) checks a side, and the
runner (`runtime.runner`) builds the sides of a job. Runs in the sandboxed child only.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import sys
import types
import warnings
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from jaxlint.runtime.entry import Entry, UserModule
from jaxlint.runtime.kit import (
    CouldNotRun,
    short_message,
    stack_lines,
)
from jaxlint.verify.jobs import apply_edits, line_map_between, verify_spec

# --------------------------------------------------------------------------- instrumentation


class Probe:
    """Line-attributed events of one run: compiles, traces, warnings, line hits, clock reads."""

    COMPILE = "/jax/core/compile/backend_compile_duration"
    TRACE = "/jax/core/compile/jaxpr_trace_duration"

    def __init__(
        self, filename: str, *, lines: Sequence[int] = (), trace_lines: bool = False
    ) -> None:
        self.filename = filename
        self.timeline: list[
            tuple[str, Any]
        ] = []  # ("compile", lines) / ("line", n) / ("clock", ...)
        self.compiles: list[list[int]] = []
        self.traces: list[list[int]] = []
        self.warnings: list[dict[str, Any]] = []
        self.hits: Counter[tuple[int, int]] = Counter()
        self.watch = set(lines)
        self.trace_lines = trace_lines
        self._active = False
        self._old_trace: Any = None
        self._warn_ctx: Any = None

    # JAX monitoring listener (process-global; registered only while active)
    def _listener(self, event: str, duration: float, **_: Any) -> None:
        if not getattr(self, "_active", False):
            return  # JAX < 0.7 cannot unregister listeners: an exited probe goes quiet
        if event == self.COMPILE:
            where = stack_lines(self.filename)
            self.compiles.append(where)
            self.timeline.append(("compile", where))
        elif event == self.TRACE:
            self.traces.append(stack_lines(self.filename))

    def _tracer(self, frame: types.FrameType, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename != self.filename:
            return None
        return self._local

    def _local(self, frame: types.FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            line = frame.f_lineno
            if not self.watch or line in self.watch:
                self.hits[(line, id(frame.f_code))] += 1
                self.timeline.append(("line", line))
        return self._local

    def _showwarning(
        self,
        message: Any,
        category: Any,
        filename: str,
        lineno: int,
        file: Any = None,
        line: Any = None,
    ) -> None:
        self.warnings.append(
            {
                "category": category.__name__,
                "message": short_message(str(message)),
                "lines": stack_lines(self.filename),
            }
        )

    def __enter__(self) -> Probe:
        import jax

        jax.monitoring.register_event_duration_secs_listener(self._listener)
        self._warn_ctx = warnings.catch_warnings()
        self._warn_ctx.__enter__()
        warnings.simplefilter("always")
        warnings.showwarning = self._showwarning
        if self.trace_lines:
            self._old_trace = sys.gettrace()
            sys.settrace(self._tracer)
        self._active = True
        return self

    def __exit__(self, *exc: Any) -> None:
        import jax

        if self.trace_lines:
            sys.settrace(self._old_trace)
        if self._warn_ctx is not None:
            self._warn_ctx.__exit__(None, None, None)
        try:
            jax.monitoring.unregister_event_duration_listener(self._listener)
        except Exception:
            pass
        self._active = False

    def compiles_at(self, lines: Sequence[int]) -> int:
        wanted = set(lines)
        return sum(1 for where in self.compiles if wanted & set(where))

    def warnings_at(self, lines: Sequence[int]) -> list[dict[str, Any]]:
        wanted = set(lines)
        return [w for w in self.warnings if wanted & set(w["lines"])]

    def hits_at(self, lines: Sequence[int]) -> int:
        """Executions of a (possibly multi-line) statement: the most hits of any of its lines in
        one code object (a lambda on the same line is a different code object)."""
        wanted = set(lines)
        return max((n for (line, _), n in self.hits.items() if line in wanted), default=0)


@contextlib.contextmanager
def capture_stdout() -> Iterator[list[str]]:
    """Collect what is printed (user prints and jax.debug.print) during the block."""
    import io

    buffer = io.StringIO()
    chunks: list[str] = []
    with contextlib.redirect_stdout(buffer):
        try:
            yield chunks
        finally:
            try:
                import jax

                jax.effects_barrier()
            except Exception:
                pass
            chunks.extend(buffer.getvalue().splitlines())


# --------------------------------------------------------------------------- jobs


class Side:
    """One version of a job's source: the original, the original with this finding's fix applied
    (`fixed`), or with other findings' fixes applied to get past them (`unmask`)."""

    def __init__(
        self, job: dict[str, Any], fixed: bool = False, unmask: Sequence[dict[str, Any]] = ()
    ) -> None:
        self.job = job
        self.fixed = fixed
        self.code = job["code"]
        self.verify = verify_spec(job)  # type: ignore[arg-type]  # the rule's data for the kinds
        self.path = job["file"]
        edits: list[Any] = []
        if fixed:
            edits += job["fix"].get("edits") or []
        for other in unmask:
            edits += other.get("edits") or []
        if (
            fixed and job["fix"].get("text") is not None
        ):  # a whole fixed file (e.g. an example's `after`)
            self.source = job["fix"]["text"]
            mapping = line_map_between(job["source"], self.source)
            self.filename = f"{self.path} (fixed)"
            self.map = lambda line: mapping[line] if 0 < line < len(mapping) else line
        elif edits:
            self.source, mapping = apply_edits(job["source"], edits)
            self.filename = f"{self.path} (fixed)" if fixed else f"{self.path} (unmasked)"
            self.map = lambda line: mapping[line] if 0 < line < len(mapping) else line
        else:
            self.source = job["source"]
            self.filename = self.path
            self.map = lambda line: line
        self.lines = sorted({self.map(line) for line in job["lines"]})
        self.line = self.map(job["line"])
        loop = job.get("loop_lines")
        self.loop_lines = list(range(self.map(loop[0]), self.map(loop[1]) + 1)) if loop else None
        self.entry_spec = job.get("entry")
        self.seed = int(job.get("seed", 0))
        skip = {(o["code"], o["line"]) for o in unmask}
        self.others = [
            {
                "code": o["code"],
                "line": self.map(o["line"]),
                "original_line": o["line"],
                "edits": o.get("edits"),
            }
            for o in job.get("others", [])
            if not (o["code"] == job["code"] and o["line"] == job["line"])
            and (o["code"], o["line"]) not in skip
        ]

    @functools.cached_property
    def tree(self) -> ast.Module | None:
        """The code this side runs, parsed once for the kinds that look at its syntax (the
        loop around a line, a `return` there, the def on it); None when it does not parse."""
        try:
            return ast.parse(self.source)
        except SyntaxError:
            return None

    @property
    def mode(self) -> str:
        if self.entry_spec is None:
            return "unavailable"
        return self.entry_spec.get("mode", "module")

    def module(self, shared: bool = False) -> UserModule:
        """A fresh execution of this source; `shared` reuses one already executed in this process
        (for checks that only trace or call functions and leave module state alone)."""
        run_main = bool((self.entry_spec or {}).get("run_main"))
        if not shared:
            return UserModule(self.path, self.source, self.filename, run_main=run_main)
        key = (self.filename, hash(self.source), run_main)
        mod = _SHARED.get(key)
        if mod is None:
            mod = UserModule(self.path, self.source, self.filename, run_main=run_main).execute()
            _SHARED[key] = mod
            while len(_SHARED) > 8:
                _SHARED.pop(next(iter(_SHARED)))
        sys.modules[mod.name] = mod.module
        return mod

    def run_module(self) -> UserModule:
        """A fresh execution of the whole source, closed again (its `errors` stay readable):
        what a check of module top-level code runs."""
        mod = self.module()
        try:
            mod.execute()
        finally:
            mod.close()
        return mod

    def entry(
        self, mod: UserModule | None = None, *, typed_keys: bool = False, shared: bool = False
    ) -> Entry:
        if self.entry_spec is None:
            raise CouldNotRun(self.job.get("entry_error") or self.job.get("error") or "no entry")
        mod = mod or self.module(shared=shared)
        return Entry(mod, self.entry_spec, self.seed, typed_keys=typed_keys)

    def other_finding_at(self, lines: Sequence[int]) -> dict[str, Any] | None:
        for other in self.others:
            if other["line"] in lines[:1]:
                return {
                    "code": other["code"],
                    "line": other["original_line"],
                    "has_fix": bool(other.get("edits")),
                }
        return None


_SHARED: dict[tuple[str, int, bool], UserModule] = {}
