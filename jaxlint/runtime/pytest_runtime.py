"""`pytest --jaxlint-runtime`: JAX's runtime checkers across a test suite, reported as findings.

Imported by `jaxlint.pytest_plugin` only when the option is given. What it turns on:

| check | JAX switch | event | code | where |
|---|---|---|---|---|
| `keys` | `jax_debug_key_reuse` | `KeyReuseError` | JAX201 | the user's line of the second consumption |
| `leaks` | after each test, the globals of the user's modules are searched for tracers (one level into containers and objects); `UnexpectedTracerError` | JAX502 | the line of the traced function that mentions the global holding the tracer, else the user's innermost frame |
| `strict-leaks` (opt-in) | `jax_check_tracer_leaks` (any leak, at the end of its trace; ~1.4x CPU: it disables caches) | `Leaked trace ...` | JAX502 | as above, from the referrer JAX names |
| `compiles` | `jax_explain_cache_misses` (its log records are parsed) | more than `max-compiles` traces of one user function in one test | JAX404 (shapes/dtypes changed) or JAX403 (static argument values changed) | the user's call line |
| | | more than `max-fresh-jits` new jitted callables from one line in one test | JAX401 | the line that defines the callable |
| `transfers` (opt-in) | `jax.transfer_guard_host_to_device("disallow")` | a disallowed transfer | JAX407 | the user's innermost frame |
| `nans` (opt-in) | `jax_debug_nans` | `FloatingPointError` | `nan` | the user's innermost frame |

A test that trips a checker fails with the jaxlint message (rule, line, what to do) instead of a
JAX traceback; recompiles fail the test too unless `fail = false`. `@pytest.mark.jaxlint_allow(
"JAX404")` turns a code off for one test (for keys and leaks the checker itself is switched off
around that test). Thresholds and suite-wide allows come from `[tool.jaxlint.pytest]`.

Under pytest-xdist each worker runs the checkers and attaches its events to the test reports
(`user_properties`); the controller (which never imports JAX) prints the summary and writes JSON.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jaxlint.runtime.pytest_notes import (
    checker_broke,
    consumed_key,
    declares_static_args,
    diff_summary,
    first_line,
    is_test_file,
    mention_in_function,
    renamed_wrapper,
    traced_by,
    tracers_in,
)

PROPERTY = "jaxlint_runtime"
MISS_LOGGER = "jax._src.interpreters.partial_eval"
DEFAULTS = {"max-compiles": 3, "max-fresh-jits": 2, "fail": True, "allow": []}
_MISS = re.compile(
    r"TRACING CACHE MISS at (?P<file>.+?):(?P<line>\d+)(?::\d+)? \((?P<fn>[^)]*)\):\n(?P<body>.*)",
    re.S,
)
_DEF = re.compile(
    r"(?:for |never seen function:\s+)(?P<name>\S+)(?: id=\d+)? defined at (?P<file>.+?):(?P<line>\d+)"
)
_LEAK_FN = re.compile(r"while tracing the function (?P<name>\S+) at (?P<file>.+?):(?P<line>\d+)")
_LEAK_REF = re.compile(r"is referred to by (?P<ref>[\w.]+)\s*$", re.M)


class JaxlintRuntimeFailure(AssertionError):
    """Raised after a test body whose run tripped a count-based check (recompiles)."""

    def __init__(self, events: list[dict[str, Any]]) -> None:
        super().__init__(render_failure(events))
        self.events = events


def render_failure(events: list[dict[str, Any]], original: str | None = None) -> str:
    lines = [f"jaxlint runtime: {len(events)} finding(s)"]
    for event in events:
        lines.append(f"{event['path']}:{event['line']}: {event['code']} {event['message']}")
    if original:
        lines.append(f"(raised by JAX: {original})")
    return "\n".join(lines)


def load_settings(config: Any) -> dict[str, Any]:
    """`[tool.jaxlint.pytest]` of the pyproject.toml next to pytest's rootdir (or its inifile)."""
    settings = dict(DEFAULTS)
    candidates = []
    inipath = getattr(config, "inipath", None)
    if inipath is not None and Path(inipath).name == "pyproject.toml":
        candidates.append(Path(inipath))
    candidates.append(Path(config.rootpath) / "pyproject.toml")
    for path in candidates:
        if not path.is_file():
            continue
        try:
            import tomllib
        except ImportError:  # pragma: no cover - Python 3.10
            import tomli as tomllib  # type: ignore[no-redef]
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise pytest.UsageError(f"{path}: {exc}") from None
        table = data.get("tool", {}).get("jaxlint", {}).get("pytest", {})
        for key, value in table.items():
            key = key.replace("_", "-")
            if key not in DEFAULTS:
                raise pytest.UsageError(
                    f"{path}: unknown key {key!r} in [tool.jaxlint.pytest] "
                    f"(known: {', '.join(DEFAULTS)})"
                )
            expected = type(DEFAULTS[key])
            if expected is int and (not isinstance(value, int) or value < 1):
                raise pytest.UsageError(f"{path}: [tool.jaxlint.pytest] {key} must be >= 1")
            if not isinstance(value, expected):
                raise pytest.UsageError(
                    f"{path}: [tool.jaxlint.pytest] {key} must be a {expected.__name__}"
                )
            settings[key] = value
        break
    return settings


class _MissFilter(logging.Filter):
    """A logger filter (it runs before every handler, pytest's log capture included): parse the
    cache-miss explanation and drop the record, whose wall of text our summary replaces."""

    def __init__(self, owner: RuntimeChecks) -> None:
        super().__init__()
        self.owner = owner

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            self.owner.on_miss(record.getMessage())
        except Exception:  # never break the test run
            pass
        return False


class RuntimeChecks:
    """The plugin object registered by `jaxlint.pytest_plugin` when the option is on."""

    def __init__(self, config: Any, checks: tuple[str, ...]) -> None:
        self.config = config
        self.checks = checks
        self.settings = load_settings(config)
        self.root = os.path.realpath(str(config.rootpath))
        self.package = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
        self.worker = hasattr(config, "workerinput")
        numprocesses = getattr(config.option, "numprocesses", None)
        self.controller = bool(numprocesses) and not self.worker
        self.events: list[dict[str, Any]] = []
        self.misses: list[dict[str, Any]] = []
        self.jax: Any = None
        self._restore: list[tuple[str, Any]] = []
        self._filter: _MissFilter | None = None
        self._logger_level: int | None = None
        self._user_cache: dict[str, bool] = {}
        self._seen_tracers: set[int] = set()
        self._in_call: Any = None  # the item whose test body is running (subtest reports)
        self._subtest_notes: list[dict[str, Any]] = []

    # -- set-up -------------------------------------------------------------------------
    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session: Any) -> None:
        if not self.controller:
            self._setup_jax()

    def _setup_jax(self) -> None:
        import jax

        self.jax = jax
        wanted = {
            "keys": ("jax_debug_key_reuse", True),
            "strict-leaks": ("jax_check_tracer_leaks", True),
            "compiles": ("jax_explain_cache_misses", True),
            "nans": ("jax_debug_nans", True),
        }
        for check, (name, value) in wanted.items():
            if check in self.checks:
                self._set(name, value)
        if "compiles" in self.checks:
            logger = logging.getLogger(MISS_LOGGER)
            self._logger_level = logger.level
            self._filter = _MissFilter(self)
            logger.addFilter(self._filter)
            if logger.getEffectiveLevel() > logging.WARNING:
                logger.setLevel(logging.WARNING)

    def _set(self, name: str, value: Any) -> None:
        self._restore.append((name, getattr(self.jax.config, name)))
        self.jax.config.update(name, value)

    def pytest_unconfigure(self, config: Any) -> None:
        if self.jax is None:
            return
        for name, value in reversed(self._restore):
            with contextlib.suppress(Exception):
                self.jax.config.update(name, value)
        if self._filter is not None:
            logger = logging.getLogger(MISS_LOGGER)
            logger.removeFilter(self._filter)
            if self._logger_level is not None:
                logger.setLevel(self._logger_level)

    # -- per test -----------------------------------------------------------------------
    def allowed(self, item: Any, code: str) -> bool:
        codes = list(self.settings.get("allow") or [])
        for mark in item.iter_markers("jaxlint_allow"):
            codes.extend(str(a) for a in mark.args)
        return any(code.startswith(c) for c in codes)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: Any, nextitem: Any) -> Iterator[None]:
        self.misses = []
        try:
            return (yield)
        finally:
            self.misses = []

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: Any) -> Iterator[None]:
        if self.jax is None:
            return (yield)
        self.misses = []  # fixtures' compiles are not the test's
        notes: list[dict[str, Any]] = []
        result = None
        with contextlib.ExitStack() as stack:
            self._per_test_switches(item, stack)
            raised: BaseException | None = None
            self._in_call, self._subtest_notes = item, []
            try:
                result = yield
            except BaseException as exc:
                raised = exc
            finally:
                self._in_call = None
            note = self._deliberate_reuse(item, raised)
            if note is None and self._subtest_notes:
                note = self._subtest_notes[0]  # a unittest subTest hit it: same treatment
            if note is not None:
                # the test itself used its key twice (recomputing an expected value with the
                # same key is how tests check determinism): a note, and the test runs again
                # without the key checker, so it passes or fails on its own merits
                notes.append(note)
                self.misses = []
                with self.jax.debug_key_reuse(False):
                    try:
                        item.runtest()
                        raised = None
                    except BaseException as exc:
                        raised = exc
            if raised is not None:
                item.stash[_PENDING] = notes + [
                    e
                    for e in self.compile_events(item) + self.leaked_tracers(item)
                    if not self.allowed(item, e["code"])
                ]
                raise raised
        events = notes + self.compile_events(item) + self.leaked_tracers(item)
        reported = [e for e in events if not self.allowed(item, e["code"])]
        failing = [e for e in reported if not e["evidence"].get("note")]
        if failing and self.settings["fail"]:
            raise JaxlintRuntimeFailure(reported)
        item.stash[_PENDING] = reported
        return result

    def _deliberate_reuse(self, item: Any, raised: BaseException | None) -> dict[str, Any] | None:
        """A note when the test's run stopped on a `KeyReuseError` that the test itself caused:
        the second consumption is written in a test file, or a test-file frame passed on that
        line a key of its own that was already consumed (`out = f(key); expected = f(key)`).
        A reuse inside the code under test stays a failure. Takes a unittest-style test's
        error out of its pending list when it is such a reuse."""
        key_error = getattr(self.jax.errors, "KeyReuseError", None)
        if key_error is None or "keys" not in self.checks:
            return None
        exc = raised
        pending = getattr(item, "_excinfo", None)  # unittest.TestCase items keep errors here
        from_unittest = None
        if exc is None and pending:
            for info in pending:
                if isinstance(info.value, key_error):
                    from_unittest, exc = info, info.value
                    break
        if exc is None and pending:
            for info in pending:
                if checker_broke(info.value):
                    from_unittest, exc = info, info.value
                    break
        if exc is not None and not isinstance(exc, key_error) and checker_broke(exc):
            # JAX's key-reuse checker itself failed on this code (it wraps primitive impls:
            # equinox's `prim=` parameter collides with its wrapper's): not the test's fault
            if from_unittest is not None:
                pending.remove(from_unittest)
            where = self.user_frame(exc.__traceback__) or (str(item.path), item.location[1] + 1)
            return self.event(
                "JAX201",
                item,
                *where,
                "note: JAX's key-reuse checker cannot run this code "
                f"({type(exc).__name__}: {first_line(exc)}); the test ran again without it",
                note=True,
                exception=type(exc).__name__,
                jax_message=first_line(exc),
            )
        if not isinstance(exc, key_error):
            return None
        where = self._test_side_reuse(item, exc)
        if where is None:
            return None
        if from_unittest is not None:
            pending.remove(from_unittest)
        return self.event(
            "JAX201",
            item,
            *where,
            "note: the test uses one key twice here (a deliberate same-key comparison?); "
            "the test ran again without the key-reuse checker",
            note=True,
            exception="jax.errors.KeyReuseError",
            jax_message=first_line(exc),
        )

    def _test_side_reuse(self, item: Any, exc: BaseException) -> tuple[str, int] | None:
        import linecache

        frames = []
        tb = exc.__traceback__
        while tb is not None:
            frames.append((tb.tb_frame, tb.tb_lineno))
            tb = tb.tb_next
        user = [(f, n) for f, n in frames if self.is_user_file(f.f_code.co_filename)]
        if not user:
            return None
        inner, line = user[-1]
        if is_test_file(inner.f_code.co_filename, item):
            return inner.f_code.co_filename, line
        for frame, lineno in user:
            filename = frame.f_code.co_filename
            if not is_test_file(filename, item):
                continue
            text = linecache.getline(filename, lineno)
            for name, value in list(frame.f_locals.items()):
                if consumed_key(value) and re.search(rf"\b{re.escape(name)}\b", text):
                    return filename, lineno
        return None

    def _per_test_switches(self, item: Any, stack: contextlib.ExitStack) -> None:
        jax = self.jax
        if "keys" in self.checks and self.allowed(item, "JAX201"):
            stack.enter_context(jax.debug_key_reuse(False))
        if "strict-leaks" in self.checks and self.allowed(item, "JAX502"):
            stack.enter_context(_config_value(jax, "jax_check_tracer_leaks", False))
        if "nans" in self.checks and self.allowed(item, "nan"):
            stack.enter_context(jax.debug_nans(False))
        if "transfers" in self.checks and not self.allowed(item, "JAX407"):
            stack.enter_context(jax.transfer_guard_host_to_device("disallow"))

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: Any, call: Any) -> Iterator[Any]:
        report = yield
        if self.jax is None:
            return report
        events: list[dict[str, Any]] = []
        excinfo = call.excinfo
        if self._in_call is item and excinfo is not None:
            # a report made while the body runs: a unittest subTest's; a deliberate same-key
            # use there is a note, and the whole test runs again without the key checker
            note = self._deliberate_reuse(item, excinfo.value)
            if note is not None:
                self._subtest_notes.append(note)
                report.outcome = "passed"
                report.longrepr = None
                return report
        if excinfo is not None and isinstance(excinfo.value, JaxlintRuntimeFailure):
            events = list(excinfo.value.events)
            report.longrepr = render_failure(events)
        elif excinfo is not None:
            event = self.map_exception(item, excinfo.value, excinfo.tb)
            if event is not None and not self.allowed(item, event["code"]):
                events.append(event)
                report.longrepr = render_failure([event], first_line(excinfo.value))
        if call.when == "call":
            events.extend(item.stash.get(_PENDING, []))
        unique: dict[tuple[Any, ...], dict[str, Any]] = {}
        for event in events:
            key = (event["code"], event["path"], event["line"], event["test"], event["message"])
            unique.setdefault(key, event)
        events = list(unique.values())
        if events:
            report.user_properties.append((PROPERTY, events))
        return report

    # -- events ---------------------------------------------------------------------------
    def event(
        self, code: str, item: Any, path: str, line: int, message: str, **evidence: Any
    ) -> dict[str, Any]:
        return {
            "code": code,
            "path": self.relpath(path),
            "line": int(line),
            "test": item.nodeid,
            "message": message,
            "evidence": evidence,
        }

    def relpath(self, path: str) -> str:
        real = os.path.realpath(path)
        if real.startswith(self.root + os.sep):
            return os.path.relpath(real, self.root).replace(os.sep, "/")
        return path

    def is_user_file(self, path: str) -> bool:
        got = self._user_cache.get(path)
        if got is None:
            real = os.path.realpath(path)
            got = (
                real.startswith(self.root + os.sep)
                and "site-packages" not in real
                and not real.startswith(self.package + os.sep)
                and os.path.isfile(real)
            )
            self._user_cache[path] = got
        return got

    def user_frame(self, tb: Any) -> tuple[str, int] | None:
        found = None
        while tb is not None:
            filename = tb.tb_frame.f_code.co_filename
            if self.is_user_file(filename):
                found = (filename, tb.tb_lineno)
            tb = tb.tb_next
        return found

    def map_exception(self, item: Any, exc: BaseException, tb: Any) -> dict[str, Any] | None:
        jax = self.jax
        text = str(exc)
        where = self.user_frame(tb) or (str(item.path), item.location[1] + 1)
        key_error = getattr(jax.errors, "KeyReuseError", None)
        if key_error is not None and isinstance(exc, key_error):
            return self.event(
                "JAX201",
                item,
                *where,
                "PRNG key reused: this consumes a key that was already used "
                f"({first_line(exc)}); split it (`key, sub = jax.random.split(key)`) and use "
                "each key once",
                exception="jax.errors.KeyReuseError",
                jax_message=first_line(exc),
            )
        if text.startswith("Leaked trace"):
            line_where = self.leak_line(text) or where
            ref = _LEAK_REF.findall(text)
            return self.event(
                "JAX502",
                item,
                *line_where,
                "a tracer escaped the traced function"
                + (f" into `{ref[-1]}`" if ref else "")
                + ": side effects in jitted code run only while tracing and store tracers; "
                "return the value instead (or use jax.debug.callback)",
                exception="Leaked trace",
                jax_message=first_line(exc),
                referrers=ref,
            )
        if isinstance(exc, jax.errors.UnexpectedTracerError):
            return self.event(
                "JAX502",
                item,
                *where,
                "a tracer leaked out of a traced function and was used later; side effects "
                "in jitted code run only while tracing: return the value instead",
                exception="jax.errors.UnexpectedTracerError",
                jax_message=first_line(exc),
            )
        if isinstance(exc, FloatingPointError) and "nan" in text.lower():
            return self.event(
                "nan",
                item,
                *where,
                f"NaN produced ({first_line(exc)})",
                exception="FloatingPointError",
            )
        if "Disallowed host-to-device transfer" in text:
            return self.event(
                "JAX407",
                item,
                *where,
                "host data copied to the device here (every call/iteration); convert it once "
                "with jnp.asarray outside the loop",
                exception="transfer_guard",
                jax_message=first_line(exc),
            )
        return None

    def leaked_tracers(self, item: Any) -> list[dict[str, Any]]:
        """Tracers left in the globals of the user's modules (a side effect of traced code that
        stored its argument or an intermediate): each reported once, by the test that left it."""
        if "leaks" not in self.checks or self.allowed(item, "JAX502"):
            return []
        tracer_type = self.jax.core.Tracer
        events = []
        for module in list(sys.modules.values()):
            filename = getattr(module, "__file__", None)
            if not filename or not self.is_user_file(filename):
                continue
            try:
                names = list(vars(module).items())
            except TypeError:
                continue
            for name, value in names:
                for tracer in tracers_in(value, tracer_type):
                    if id(tracer) in self._seen_tracers:
                        continue
                    self._seen_tracers.add(id(tracer))
                    where = f"{module.__name__}.{name}"
                    info = getattr(getattr(tracer, "_debug_info", None), "func_src_info", "")
                    match = re.match(r"(?P<fn>\S+) at (?P<file>.+):(?P<line>\d+)$", info or "")
                    if match is None:
                        continue
                    path, line = match.group("file"), int(match.group("line"))
                    line = mention_in_function(path, line, name) or line
                    events.append(
                        self.event(
                            "JAX502",
                            item,
                            path,
                            line,
                            f"a tracer of `{match.group('fn')}` was stored in `{where}`: side "
                            "effects in jitted code run only while tracing and keep tracers; "
                            "return the value instead (or use jax.debug.callback)",
                            tracer=first_line(repr(tracer)),
                            holder=where,
                            traced_function=info,
                        )
                    )
                    break
        return events

    def leak_line(self, text: str) -> tuple[str, int] | None:
        """The line of the leaking function that mentions the global JAX says holds the tracer."""
        match = _LEAK_FN.search(text)
        if match is None:
            return None
        path, line = match.group("file"), int(match.group("line"))
        refs = _LEAK_REF.findall(text)
        name = refs[-1].rpartition(".")[2] if refs else None
        found = mention_in_function(path, line, name) if name else None
        return (path, found or line)

    def on_miss(self, message: str) -> None:
        match = _MISS.match(message)
        if match is None:
            return
        body = match.group("body")
        definition = _DEF.search(body)
        if definition is None:
            return
        def_file = definition.group("file")
        if not self.is_user_file(def_file):
            return
        if "re-defined repeatedly" in body:
            kind = "redefined"
        elif "never seen function" in body:
            kind = "new"
        elif "Static(val=" in body:
            kind = "static"
        elif "different input types" in body:
            kind = "types"
        elif "explanation unavailable" in body:
            kind = "unexplained"
        else:
            kind = "other"
        self.misses.append(
            {
                "via": traced_by(),
                "name": definition.group("name"),
                "def": (def_file, int(definition.group("line"))),
                "call": (match.group("file"), int(match.group("line"))),
                "kind": kind,
                "detail": " ".join(body.split()),
            }
        )

    def compile_events(self, item: Any) -> list[dict[str, Any]]:
        if "compiles" not in self.checks or not self.misses:
            return []
        groups: dict[tuple[str, int, str], list[dict[str, Any]]] = {}
        for miss in self.misses:
            groups.setdefault((*miss["def"], miss["name"]), []).append(miss)
        events = []
        for (def_file, def_line, name), every in groups.items():
            if renamed_wrapper(def_file, def_line, name):
                for miss in every:
                    # one jitted callable per decorated function, all reported under one def
                    # line: their traces cannot be told apart, so they are not counted as one's
                    if miss.get("via", "jit") == "jit":
                        miss["via"] = "a jit wrapper per decorated function"
            others = [m for m in every if m.get("via", "jit") != "jit"]
            misses = [m for m in every if m.get("via", "jit") == "jit"]
            where = (item, def_file, def_line, name)
            note = self._retrace_note(*where, others)
            event = self._jit_event(*where, misses) if misses else None
            if event is not None and is_test_file(def_file, item):
                # the test's own jitted function: how often it compiles is what the test chose
                # (chex's tests of `assert_max_traces` re-trace on purpose): a note
                event["evidence"].update(note=True, finding=event["message"])
                event["message"] = (
                    f"note: {event['message']} (`{name}` is defined in a test file: the test "
                    "chose this, nothing to fix in the code under test)"
                )
            events.extend(e for e in (note, event) if e is not None)
        return events

    def _retrace_note(
        self, item: Any, def_file: str, def_line: int, name: str, others: list[dict[str, Any]]
    ) -> dict[str, Any] | None:
        """A closure re-traced by `lax.cond`/`scan`/`eval_shape`... called eagerly: there is
        no `jax.jit` to hoist, and JAX caches nothing there by design: a note at most."""
        redone = [m for m in others if m["kind"] == "redefined"]
        if len(redone) + 1 <= int(self.settings["max-fresh-jits"]):
            return None
        via = others[0]["via"]
        return self.event(
            "JAX401",
            item,
            def_file,
            def_line,
            f"note: `{name}` was traced again by `{via}` {len(others)} times in one "
            "test (a new closure each time); not a `jax.jit` made per call, so "
            "nothing to hoist; jit the caller if this runs in a hot loop",
            note=True,
            traced_by=via,
            traces=len(others),
            miss_reason=redone[0]["detail"],
        )

    def _jit_event(
        self, item: Any, def_file: str, def_line: int, name: str, misses: list[dict[str, Any]]
    ) -> dict[str, Any] | None:
        """JAX401 for more than `max-fresh-jits` jitted callables from one line, else JAX403/404
        for more than `max-compiles` traces of one jitted function."""
        max_fresh = int(self.settings["max-fresh-jits"])
        max_compiles = int(self.settings["max-compiles"])
        fresh = [m for m in misses if m["kind"] in ("new", "redefined")]
        redefined = [m for m in misses if m["kind"] == "redefined"]
        if redefined and len(fresh) > max_fresh:  # "more than max-fresh-jits" callables
            return self.event(
                "JAX401",
                item,
                def_file,
                def_line,
                f"`jax.jit` of a new `{name}` each time: {len(fresh)} jitted callables "
                "from this line in one test, each traced and compiled again; create the "
                "jitted function once (outside the loop or function) and reuse it",
                compiles=len(fresh),
                threshold=max_fresh,
                miss_reason=redefined[0]["detail"],
            )
        if redefined or len(misses) <= max_compiles:
            return None
        static = any(m["kind"] == "static" for m in misses)
        if not static and all(m["kind"] == "unexplained" for m in misses if m["kind"] != "new"):
            # JAX 0.11+ says "cache miss explanation unavailable" for a changed static value:
            # the decorator at the definition tells whether static arguments exist
            static = declares_static_args(def_file, def_line)
        changed = [m for m in misses if m["kind"] in ("static", "types", "other", "unexplained")]
        last = changed[-1] if changed else misses[-1]
        call_file, call_line = last["call"]
        if not self.is_user_file(call_file):
            call_file, call_line = def_file, def_line
        what = diff_summary(last["detail"], static)
        defined = f"{self.relpath(def_file)}:{def_line}"
        head = f"`{name}` (defined at {defined}) compiled {len(misses)} times in one test"
        if static:
            message = (
                f"{head} because a static argument changed ({what}); make it a traced argument "
                "or keep its values to a few"
            )
        else:
            message = (
                f"{head} for new input shapes or dtypes ({what}); pad or bucket the inputs to a "
                "few shapes"
            )
        return self.event(
            "JAX403" if static else "JAX404",
            item,
            call_file,
            call_line,
            message,
            function=name,
            defined_at=defined,
            compiles=len(misses),
            threshold=max_compiles,
            miss_reasons=[m["detail"] for m in changed[-3:]],
        )

    # -- reporting ------------------------------------------------------------------------
    def pytest_runtest_logreport(self, report: Any) -> None:
        for name, value in getattr(report, "user_properties", ()):
            if name == PROPERTY:
                for event in value:
                    if event not in self.events:
                        self.events.append(event)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.worker:
            return
        writer = terminalreporter
        title = "jaxlint runtime findings"
        findings = [e for e in self.events if not (e.get("evidence") or {}).get("note")]
        notes = [e for e in self.events if (e.get("evidence") or {}).get("note")]
        if not findings:
            writer.write_sep("=", title)
            writer.write_line(f"no runtime findings (checks: {', '.join(self.checks)})")
        else:
            writer.write_sep("=", f"{title} ({len(findings)})")
            self._write_events(writer, findings)
        if notes:
            writer.write_sep("-", f"jaxlint runtime notes ({len(notes)}, no test failed for them)")
            self._write_events(writer, notes)
        self.write_json()

    @staticmethod
    def _write_events(writer: Any, events: list[dict[str, Any]]) -> None:
        for event in sorted(events, key=lambda e: (e["path"], e["line"], e["code"])):
            writer.write_line(
                f"{event['path']}:{event['line']}: {event['code']} {event['message']}"
            )
            writer.write_line(f"    in {event['test']}")

    def write_json(self) -> None:
        target = self.config.getoption("jaxlint_runtime_json", None)
        if not target or self.worker:
            return
        path = Path(target)
        if not path.is_absolute():
            path = Path(self.config.invocation_params.dir) / path
        path.write_text(json.dumps(self.events, indent=2, default=str) + "\n", encoding="utf-8")


_PENDING = pytest.StashKey[list]()


@contextlib.contextmanager
def _config_value(jax: Any, name: str, value: Any) -> Iterator[None]:
    old = getattr(jax.config, name)
    jax.config.update(name, value)
    try:
        yield
    finally:
        jax.config.update(name, old)
