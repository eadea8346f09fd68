"""Child half of `jaxlint verify`: runs the jobs `verify_plan` made, inside the sandbox.

Pieces every verifier kind shares:

- `UserModule`: executes a file's top-level statements one at a time in a fresh module namespace
  (a unique module name, never `__main__`), recording the exception of each failing statement and
  still defining what comes after it; a def whose decorator raises is defined undecorated.
- `Entry`: the callable a job reaches the flagged line through (`jit`: our own `jax.jit` of the
  Python function with the analysis' static parameters; `grad`: `jax.jvp`; `call`/`attr`: the
  module attribute as the user's code calls it; `module`: the top-level statements themselves),
  with its example inputs materialized from a fixed seed.
- `Probe`: process-wide instrumentation, attributed to source lines by walking the Python stack
  for frames of the user's file: compile events (`jax.monitoring`), warnings, line executions
  (`sys.settrace`, user frames only), clock reads, PRNG calls.
- `Outcome`: verdict, reason and evidence of one kind; `run_job` combines the kinds of a job and,
  when the finding has a fix, runs them on the fixed source too.

Everything runs under a per-job soft timeout (SIGALRM, a BaseException that user code's
`except Exception` cannot swallow); the parent's hard timeout covers what that cannot interrupt.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import importlib
import itertools
import json
import os
import signal
import sys
import time
import traceback
import types
import warnings
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

# below both the runner and the kinds (kit.py); re-exported for the v_* kinds and tests
from jaxlint.runtime_checks.kit import (
    DIFFER,
    CouldNotRun,
    compare_sides,
    describe_exception,
    exception_lines,
    short_message,
    stack_lines,
)

CONFIRMED = "confirmed"
NOT_REPRODUCED = "not-reproduced"
COULD_NOT_RUN = "could-not-run"
KIND_MODULES = {
    "trace": "v_trace",
    "retrace-static": "v_retrace_static",
    "compiles": "v_compiles",
    "keycheck": "v_keycheck",
    "draws": "v_draws",
    "retrace-cmp": "v_retrace_cmp",
    "execcount": "v_execcount",
    "leaks": "v_leaks",
    "bench": "v_bench",
    "lower": "v_lower",
    "transfers": "v_transfers",
    "numeric": "v_numeric",
    "dtype": "v_dtype",
    "import": "v_import",
}
SUPPLEMENTARY = {"retrace-static", "numeric"}
# Slow checks (seconds: JAX's leak checker walks the garbage collector's referrers) that only
# run when the kinds before them did not already confirm the finding.
EXPENSIVE = {"leaks"}
# Kinds whose fixed version is expected to compute the same results as the original.
RESULT_PRESERVING = {
    "trace",
    "retrace-static",
    "compiles",
    "execcount",
    "leaks",
    "lower",
    "transfers",
    "numeric",
    "dtype",
    "import",
}
_counter = itertools.count()


class VerifyTimeout(BaseException):
    """The per-job soft time limit ran out (BaseException: user `except Exception` won't eat it)."""


@dataclass
class Outcome:
    verdict: str
    reason: str = ""
    evidence: dict[str, Any] = field(default_factory=dict)


def confirmed(reason: str, **evidence: Any) -> Outcome:
    return Outcome(CONFIRMED, reason, evidence)


def not_reproduced(reason: str, **evidence: Any) -> Outcome:
    return Outcome(NOT_REPRODUCED, reason, evidence)


def could_not_run(reason: str, **evidence: Any) -> Outcome:
    return Outcome(COULD_NOT_RUN, reason, evidence)


def stopped(side: Any, exc: BaseException, ran: str, before: str = "") -> Outcome:
    """could-not-run for code that raised before the check could see anything; when it stopped at
    another finding's line, say so (`masked_by`), so that finding's fix can be applied and the
    check repeated."""
    info = describe_exception(exc, side.filename)
    where = info.get("at_line")
    other = side.other_finding_at(info.get("user_frames") or [])
    if other is not None:
        info["masked_by"] = other
        return could_not_run(
            f"masked: the code stopped earlier at line {where} ({other['code']}: "
            f"{info['exception']}); fix that first and verify again",
            **info,
        )
    place = f" at line {where}" if where else ""
    return could_not_run(
        f"{ran} failed{place}{before}: {info['exception']}: {info['message']}", **info
    )


# --------------------------------------------------------------------------- user module


class UserModule:
    """A fresh execution of one source text as a module (never `__main__`)."""

    def __init__(self, path: str, source: str, filename: str) -> None:
        self.path = path
        self.source = source
        self.filename = filename
        self.tree = ast.parse(source, filename=filename)
        stem = "".join(
            c if c.isalnum() else "_" for c in os.path.splitext(os.path.basename(path))[0]
        )
        self.name = f"_jaxlint_verify_{stem}_{next(_counter)}"
        self.module = types.ModuleType(self.name)
        self.module.__file__ = path
        self.namespace = self.module.__dict__
        self.errors: list[dict[str, Any]] = []
        self.executed = False
        self._flags = 0
        for stmt in self.tree.body:
            if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__":
                import __future__

                for alias in stmt.names:
                    feature = getattr(__future__, alias.name, None)
                    if feature is not None:
                        self._flags |= feature.compiler_flag

    def statement_at(self, line: int) -> ast.stmt | None:
        for stmt in self.tree.body:
            if stmt.lineno <= line <= (stmt.end_lineno or stmt.lineno):
                return stmt
            decorators = getattr(stmt, "decorator_list", [])
            if decorators and min(d.lineno for d in decorators) <= line <= stmt.lineno:
                return stmt
        return None

    def _compile(self, stmts: list[ast.stmt]) -> types.CodeType:
        return compile(
            ast.Module(body=stmts, type_ignores=[]),
            self.filename,
            "exec",
            flags=self._flags,
            dont_inherit=True,
        )

    def execute(
        self,
        around: Callable[[ast.stmt], contextlib.AbstractContextManager[Any]] | None = None,
        stop_after: int | None = None,
    ) -> UserModule:
        """Run the top-level statements; `around(stmt)` wraps each (instrumentation)."""
        folder = os.path.dirname(os.path.abspath(self.path))
        if folder not in sys.path:
            sys.path.insert(0, folder)
        sys.modules[self.name] = self.module
        self.executed = True
        for stmt in self.tree.body:
            if stop_after is not None and stmt.lineno > stop_after:
                break
            self.run_statements([stmt], around)
        return self

    def run_statements(
        self,
        stmts: list[ast.stmt],
        around: Callable[[ast.stmt], contextlib.AbstractContextManager[Any]] | None = None,
    ) -> BaseException | None:
        stmt = stmts[0]
        code = self._compile(stmts)
        manager = around(stmt) if around is not None else contextlib.nullcontext()
        try:
            with manager:
                exec(code, self.namespace)
        except (VerifyTimeout, KeyboardInterrupt):
            raise
        except BaseException as exc:  # SystemExit from user code included
            record = {
                "line": stmt.lineno,
                "end_line": stmts[-1].end_lineno or stmts[-1].lineno,
                "exc": exc,
                "at_line": (exception_lines(exc, self.filename) or [stmt.lineno])[0],
            }
            self.errors.append(record)
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and getattr(
                stmt, "decorator_list", None
            ):
                bare = ast.copy_location(
                    type(stmt)(
                        **{**{f: getattr(stmt, f) for f in stmt._fields}, "decorator_list": []}
                    ),
                    stmt,
                )
                ast.fix_missing_locations(bare)
                try:
                    exec(self._compile([bare]), self.namespace)
                    record["defined_undecorated"] = True
                except Exception:
                    pass
            return exc
        return None

    def error_at(self, lines: Sequence[int]) -> dict[str, Any] | None:
        wanted = set(lines)
        for record in self.errors:
            user = exception_lines(record["exc"], self.filename)
            if wanted & set(user[:1]) or (not user and record["line"] in wanted):
                return record
        return None

    def close(self) -> None:
        sys.modules.pop(self.name, None)


def resolve_attr(namespace: dict[str, Any], qualname: str, *, self_given: bool = False) -> Any:
    """The module attribute `qualname`; `Class.method` is bound to `Class()` unless the inputs
    supply `self` (`self_given`)."""
    parts = qualname.split(".")
    if parts[0] not in namespace:
        raise CouldNotRun(f"`{parts[0]}` is not defined after importing the module")
    obj = namespace[parts[0]]
    owner = None
    for part in parts[1:]:
        owner, obj = obj, getattr(obj, part)
    if owner is not None and isinstance(owner, type) and not self_given:
        import inspect

        target = getattr(obj, "__wrapped__", obj)
        try:
            params = list(inspect.signature(target).parameters)
        except (TypeError, ValueError):
            params = []
        if params[:1] == ["self"]:
            try:
                obj = getattr(owner(), parts[-1])
            except Exception as exc:
                raise CouldNotRun(
                    f"`{qualname}` is a method and {owner.__name__}() cannot be built without "
                    f"arguments ({type(exc).__name__}: {short_message(exc)}); give `self` as "
                    f'the first input, e.g. --args "={owner.__name__}(...), ..."'
                ) from None
    return obj


def _array_tree(value: Any) -> bool:
    """A pytree whose leaves are all arrays or numbers (traceable), not a callable or an object."""
    import jax
    import numpy as np

    if callable(value) and not hasattr(value, "shape"):
        return False
    try:
        leaves = jax.tree.leaves(value)
    except Exception:
        return False
    return bool(leaves) and all(
        isinstance(leaf, (jax.Array, np.ndarray, np.generic, int, float, complex))
        for leaf in leaves
    )


def _array_leaves(value: Any) -> bool:
    """A pytree (even a callable one, like an equinox Module) whose leaves are all arrays."""
    import jax
    import numpy as np

    try:
        leaves = jax.tree.leaves(value)
    except Exception:
        return False
    return bool(leaves) and all(isinstance(leaf, (jax.Array, np.ndarray)) for leaf in leaves)


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _bind_self(obj: Any, fn: Any) -> Any:
    """Unwrapping a bound (jitted) method loses `self`: put it back."""
    instance = getattr(obj, "__self__", None)
    if instance is None or getattr(fn, "__self__", None) is not None or isinstance(obj, type):
        return fn
    import types as _types

    if isinstance(instance, _types.ModuleType):
        return fn
    return functools.partial(fn, instance) if callable(fn) else fn


def unwrap_transforms(obj: Any, filename: str) -> Any:
    """The user's Python function under jit/vmap/grad/pmap/checkpoint wrappers."""
    seen = 0
    while seen < 10:
        seen += 1
        code = getattr(obj, "__code__", None)
        if code is not None and code.co_filename == filename:
            return obj
        inner = getattr(obj, "__wrapped__", None)
        if inner is None:
            inner = getattr(obj, "func", None) if isinstance(obj, functools.partial) else None
        if inner is None:
            return obj
        obj = inner
    return obj


def fresh(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A new function object around `fn` (JAX caches traces per function object)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    return wrapper


def block(value: Any) -> Any:
    import jax

    try:
        return jax.block_until_ready(value)
    except Exception:
        return value


# --------------------------------------------------------------------------- entries


class Entry:
    """How a job reaches the flagged line, with its inputs."""

    def __init__(
        self, mod: UserModule, spec: dict[str, Any], seed: int = 0, *, typed_keys: bool = False
    ) -> None:
        self.mod = mod
        self.spec = spec
        self.mode = spec["mode"]
        self.qualname = spec.get("function")
        self.static = list(spec.get("static") or [])
        self.seed = seed
        self.obj: Any = None
        self.fn: Any = None
        self.args: list[Any] = []
        self.kwargs: dict[str, Any] = {}
        self.labels: list[str] = []
        self.factory: str | None = None
        self._jit_cache: Any = None
        if self.mode == "module":
            return
        if not mod.executed:
            mod.execute()
        params = list(spec.get("params") or [])
        self_given = params[:1] == ["self"]
        self.obj = resolve_attr(mod.namespace, self.qualname, self_given=self_given)
        self.fn = _bind_self(self.obj, unwrap_transforms(self.obj, mod.filename))
        self._flax(mod)
        self._inputs(typed_keys)
        then = spec.get("then")
        if self.mode == "call" and then:
            self._factory(then, typed_keys)

    def _factory(self, then: dict[str, Any], typed_keys: bool) -> None:
        """Call a factory once, then work with the function it returns."""
        try:
            product = self.call()
        except Exception as exc:
            raise CouldNotRun(
                f"{self.describe()} failed: {type(exc).__name__}: {short_message(exc)}"
            ) from None
        self.factory = self.describe()
        self.spec = then
        self.mode = then["mode"] if then["mode"] in ("jit", "grad") else "attr"
        self.qualname = then.get("function")
        self.static = list(then.get("static") or [])
        self.obj = product
        self.fn = unwrap_transforms(product, self.mod.filename)
        self.args, self.kwargs, self.labels = [], {}, []
        self._inputs(typed_keys)

    def _flax(self, mod: UserModule) -> None:
        """`Module.__call__` of a flax.linen Module runs through `Module().init(key, ...)`."""
        owner_name, _, method = (self.qualname or "").rpartition(".")
        owner = mod.namespace.get(owner_name) if owner_name and "." not in owner_name else None
        if not isinstance(owner, type) or "flax" not in sys.modules:
            return
        try:
            import flax.linen as nn
        except Exception:
            return
        if not issubclass(owner, nn.Module):
            return
        import jax

        params = list(self.spec.get("params") or [])
        items = list(self.spec.get("inputs") or [])
        instance: Any = None
        if params[:1] == ["self"] and items and items[0][0] == "self":
            # a recorded (or given) `self`: the module with its own fields
            from jaxlint.runtime_checks.inputs import materialize, parse_item

            text = items[0][1].strip()
            try:
                if text.startswith("="):
                    instance = eval(text[1:], mod.namespace)  # noqa: S307
                else:
                    instance = materialize([parse_item(text)], namespace=mod.namespace)[0]
            except Exception as exc:
                raise CouldNotRun(
                    f"input for `self` ({text!r}): {type(exc).__name__}: {short_message(exc)}"
                ) from None
            self.spec = {**self.spec, "inputs": items[1:]}

        def init(*args: Any, **kwargs: Any) -> Any:
            module = instance if instance is not None else owner()
            return module.init(jax.random.key(0), *args, method=method, **kwargs)

        functools.update_wrapper(init, getattr(owner, method))
        self.fn = self.obj = init
        if params[:1] == ["self"]:
            self.spec = {**self.spec, "params": params[1:]}

    def _inputs(self, typed_keys: bool) -> None:
        """Materialize the inputs (fixed seed). An item `=EXPR` is a Python expression evaluated in
        the module's namespace (a callable, a config object): passed as is, and static under jit."""
        from jaxlint.runtime_checks.inputs import (
            KeySpec,
            LiteralSpec,
            TreeSpec,
            materialize,
            parse_item,
        )

        items = self.spec.get("inputs") or []
        specs: list[Any] = []
        for name, text, _where in items:
            if text.strip().startswith("="):
                specs.append(None)
                continue
            try:
                specs.append(parse_item(text))
            except Exception as exc:
                raise CouldNotRun(f"input for `{name}` ({text!r}): {exc}") from None
        try:
            built = materialize(
                [s for s in specs if s is not None], seed=self.seed, namespace=self.mod.namespace
            )
        except Exception as exc:
            raise CouldNotRun(
                f"building the inputs failed: {type(exc).__name__}: {short_message(exc)}"
            ) from None
        values = iter(built)
        resolved: list[Any] = []
        for (name, text, _where), spec in zip(items, specs):
            if spec is not None:
                resolved.append(next(values))
                continue
            try:
                resolved.append(eval(text.strip()[1:], self.mod.namespace))  # noqa: S307
            except Exception as exc:
                raise CouldNotRun(
                    f"input for `{name}` ({text!r}): {type(exc).__name__}: {short_message(exc)}"
                ) from None
        if typed_keys:
            import jax

            resolved = [
                jax.random.wrap_key_data(v) if isinstance(s, KeySpec) and s.legacy else v
                for s, v in zip(specs, resolved)
            ]
        params = list(self.spec.get("params") or [])
        names = [name for name, _, _ in items]
        # positional while the names follow the parameter order, keywords after a gap
        position = 0
        for (name, text, _where), value, spec in zip(items, resolved, specs):
            if position < len(params) and params[position] == name and not self.kwargs:
                self.args.append(value)
                position += 1
            else:
                self.kwargs[name] = value
            self.labels.append(f"{name}={spec if spec is not None else text.strip()}")
            python_object = (spec is None or isinstance(spec, TreeSpec)) and not _array_tree(value)
            string = isinstance(spec, LiteralSpec) and isinstance(spec.value, str)
            # a Python value recorded from a real call was concrete there: keep it static
            concrete = _where == "capture" and isinstance(spec, LiteralSpec) and _hashable(value)
            if (python_object or string or concrete) and name not in self.static:
                self.static.append(name)
            if name in self.static and isinstance(spec, TreeSpec) and _array_leaves(value):
                if not _hashable(value):  # a pytree of arrays (an equinox Module under
                    self.static = [s for s in self.static if s != name]  # filter_jit): trace it
        self.specs = dict(zip(names, specs))

    # -- the ways to run it --------------------------------------------------------------
    def jitted(self, extra_static: Sequence[str] = (), fn: Any = None) -> Any:
        import jax

        static = [s for s in (*self.static, *extra_static)]
        return jax.jit(fresh(fn or self.fn), static_argnames=tuple(dict.fromkeys(static)) or None)

    def trace(self) -> Any:
        """Make JAX trace the flagged code without executing it where that is possible."""
        if self.mode == "jit":
            return self.jitted().trace(*self.args, **self.kwargs)
        if self.mode == "grad":
            return self._jvp()
        if self.mode == "attr" and callable(getattr(self.obj, "trace", None)):
            return self.obj.trace(*self.args, **self.kwargs)
        return self.call()

    def run(self) -> Any:
        """Execute it the way the program does (jitted where JAX would jit it); repeated runs
        reuse one jitted wrapper, as a program calling the same function would."""
        if self.mode == "jit":
            if self._jit_cache is None:
                self._jit_cache = self.jitted()
            return block(self._jit_cache(*self.args, **self.kwargs))
        if self.mode == "grad":
            return block(self._jvp())
        return self.call()

    def call(self) -> Any:
        return block(self.obj(*self.args, **self.kwargs))

    def eager(self) -> Any:
        """The Python function without any transformation (what the code means)."""
        return block(self.fn(*self.args, **self.kwargs))

    def _jvp(self) -> Any:
        import jax
        import jax.numpy as jnp

        params = list(self.spec.get("params") or [])
        static = set(self.static)
        positions = [
            i
            for i, value in enumerate(self.args)
            if (params[i] if i < len(params) else None) not in static
            and jnp.issubdtype(jnp.result_type(value), jnp.inexact)
        ]
        if not positions:
            raise CouldNotRun("no floating-point traced input to differentiate with jax.jvp")
        args = list(self.args)

        def partial_fn(*traced: Any) -> Any:
            full = list(args)
            for i, value in zip(positions, traced):
                full[i] = value
            return self.fn(*full, **self.kwargs)

        primals = tuple(args[i] for i in positions)
        tangents = tuple(jnp.ones_like(p) for p in primals)
        return jax.jvp(partial_fn, primals, tangents)

    def describe(self) -> str:
        if self.mode == "module":
            return "module top-level code"
        how = {
            "jit": "jax.jit",
            "grad": "jax.jvp",
            "call": "a plain call",
            "attr": "the module attribute",
        }[self.mode]
        static = f", static {self.static}" if self.static and self.mode == "jit" else ""
        made = f" (returned by {self.factory})" if self.factory else ""
        return f"{self.qualname}({', '.join(self.labels)}){made} via {how}{static}"


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
        from jaxlint.runtime_checks.verify_plan import apply_edits

        self.job = job
        self.fixed = fixed
        self.code = job["code"]
        self.path = job["file"]
        edits: list[Any] = []
        if fixed:
            edits += job["fix"].get("edits") or []
        for other in unmask:
            edits += other.get("edits") or []
        if (
            fixed and job["fix"].get("text") is not None
        ):  # a whole fixed file (e.g. an example's `after`)
            from jaxlint.runtime_checks.verify_plan import line_map_between

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

    @property
    def mode(self) -> str:
        if self.entry_spec is None:
            return "unavailable"
        return self.entry_spec.get("mode", "module")

    def module(self, shared: bool = False) -> UserModule:
        """A fresh execution of this source; `shared` reuses one already executed in this process
        (for checks that only trace or call functions and leave module state alone)."""
        if not shared:
            return UserModule(self.path, self.source, self.filename)
        key = (self.filename, hash(self.source))
        mod = _SHARED.get(key)
        if mod is None:
            mod = UserModule(self.path, self.source, self.filename).execute()
            _SHARED[key] = mod
            while len(_SHARED) > 8:
                _SHARED.pop(next(iter(_SHARED)))
        sys.modules[mod.name] = mod.module
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


_SHARED: dict[tuple[str, int], UserModule] = {}


def _load_kind(kind: str) -> Any:
    return importlib.import_module(f"jaxlint.runtime_checks.{KIND_MODULES[kind]}")


@contextlib.contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    if not seconds or not hasattr(signal, "setitimer") or threading_main() is False:
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        raise VerifyTimeout(f"timed out after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, float(seconds))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def threading_main() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


# kinds that can decide without running the user's function (name lookups)
NO_ENTRY_KINDS = {"import"}


def run_kind(kind: str, side: Side) -> Outcome:
    if side.entry_spec is None and kind not in NO_ENTRY_KINDS and side.job.get("entry_error"):
        return could_not_run(side.job["entry_error"])
    try:
        module = _load_kind(kind)
        return module.check(side)
    except CouldNotRun as exc:
        return could_not_run(str(exc))
    except VerifyTimeout:
        raise
    except Exception as exc:  # a verifier bug or user code failing where we did not expect it
        return could_not_run(
            f"{kind} check failed: {type(exc).__name__}: {short_message(exc)}",
            internal=traceback.format_exc(limit=6)[-1500:],
        )


def combine(kinds: Sequence[str], outcomes: dict[str, Outcome]) -> Outcome:
    """First kind decides unless another (non-supplementary) kind confirms."""
    deciding = [k for i, k in enumerate(kinds) if i == 0 or k not in SUPPLEMENTARY]
    confirmed_by = [k for k in deciding if outcomes[k].verdict == CONFIRMED]
    evidence: dict[str, Any] = {"checks": {k: outcomes[k].verdict for k in kinds}}
    for k in kinds:
        for key, value in outcomes[k].evidence.items():
            if key in evidence and key != "checks":
                evidence[f"{k}.{key}"] = value
            else:
                evidence.setdefault(key, value)
    if confirmed_by:
        main = outcomes[confirmed_by[0]]
        return Outcome(CONFIRMED, main.reason, evidence)
    if all(outcomes[k].verdict == COULD_NOT_RUN for k in deciding):
        distinct = list(dict.fromkeys(outcomes[k].reason for k in deciding if outcomes[k].reason))
        if len(distinct) <= 1:
            return Outcome(COULD_NOT_RUN, distinct[0] if distinct else "", evidence)
        reasons = "; ".join(f"{k}: {outcomes[k].reason}" for k in deciding if outcomes[k].reason)
        return Outcome(COULD_NOT_RUN, reasons, evidence)
    main = next(outcomes[k] for k in deciding if outcomes[k].verdict == NOT_REPRODUCED)
    return Outcome(NOT_REPRODUCED, main.reason, evidence)


def run_job(job: dict[str, Any], timeout: float | None) -> dict[str, Any]:
    start = time.perf_counter()
    kinds = list(job.get("kinds") or [])
    result: dict[str, Any] = {"id": job["id"]}
    if job.get("error") or not kinds:
        result.update(verdict=COULD_NOT_RUN, reason=job.get("error") or "no verifier", evidence={})
        result["seconds"] = time.perf_counter() - start
        return result
    outcomes: dict[str, Outcome] = {}
    try:
        with time_limit(timeout):
            side = Side(job)
            for kind in kinds:
                if kind in EXPENSIVE and any(o.verdict == CONFIRMED for o in outcomes.values()):
                    continue  # already confirmed: skip the slow extra check
                outcomes[kind] = run_kind(kind, side)
                _reset()
            kinds = [k for k in kinds if k in outcomes]
            final = combine(kinds, outcomes)
            if final.verdict == COULD_NOT_RUN:
                unmasked = _unmask(job, kinds, outcomes)
                if unmasked is not None:
                    final, outcomes = unmasked
            if job.get("fix") and final.verdict == CONFIRMED and job.get("check_fix", True):
                final.evidence["fix"] = check_fix(job, kinds, outcomes)
    except Exception as exc:  # a bug of ours: this finding fails, the others still run
        final = Outcome(
            COULD_NOT_RUN,
            f"internal error in the verifier: {type(exc).__name__}: {short_message(exc)}",
            {"internal": traceback.format_exc(limit=8)[-2000:]},
        )
    except VerifyTimeout as exc:
        done = {k: o.verdict for k, o in outcomes.items()}
        final = Outcome(COULD_NOT_RUN, f"{exc} (raise --timeout)", {"checks": done} if done else {})
        if outcomes and any(o.verdict == CONFIRMED for o in outcomes.values()):
            final = combine(list(outcomes), outcomes)
            final.evidence["fix"] = {"verdict": COULD_NOT_RUN, "reason": str(exc)}
    finally:
        _reset()
    if job.get("entry"):
        final.evidence.setdefault("entry", job["entry"].get("mode"))
    if job.get("guessed"):
        final.evidence["inputs_guessed"] = True
    result.update(verdict=final.verdict, reason=final.reason, evidence=final.evidence)
    result["seconds"] = round(time.perf_counter() - start, 4)
    return result


def _unmask(
    job: dict[str, Any], kinds: Sequence[str], outcomes: dict[str, Outcome]
) -> tuple[Outcome, dict[str, Outcome]] | None:
    """A check stopped at another finding's line: apply that finding's fix and try again (a few
    times), so each finding is judged on its own line."""
    applied: list[dict[str, Any]] = []
    current = outcomes
    for _ in range(3):
        masked = [o.evidence["masked_by"] for o in current.values() if o.evidence.get("masked_by")]
        if not masked or not masked[0].get("has_fix"):
            return None
        blocker = next(
            (
                o
                for o in job.get("others", [])
                if o["line"] == masked[0]["line"] and o["code"] == masked[0]["code"]
            ),
            None,
        )
        if blocker is None or not blocker.get("edits") or blocker in applied:
            return None
        applied.append(blocker)
        side = Side(job, unmask=applied)
        current = {}
        for kind in kinds:
            current[kind] = run_kind(kind, side)
            _reset()
        final = combine(kinds, current)
        if final.verdict != COULD_NOT_RUN:
            shown = ", ".join(f"{o['code']} at line {o['line']}" for o in applied)
            final.evidence["unmasked_by_fixing"] = [
                {"code": o["code"], "line": o["line"]} for o in applied
            ]
            final.reason += f" (with the fix of {shown} applied first)"
            return final, current
    return None


def check_fix(
    job: dict[str, Any], kinds: Sequence[str], original: dict[str, Outcome]
) -> dict[str, Any]:
    """Run the deciding kinds on the fixed source; compare results where the fix keeps them.

    Other findings on the same lines get their fixes too (a fix run fixes them together)."""
    same_line = [
        o
        for o in job.get("others", [])
        if o.get("edits")
        and o["line"] in job["lines"]
        and not (
            o["code"] == job["code"]
            and o["line"] == job["line"]
            and o["edits"] == job["fix"].get("edits")
        )
        and not _overlaps(o["edits"], job["fix"].get("edits") or [])
        and job["fix"].get("text") is None
    ]
    side = Side(job, fixed=True, unmask=same_line)
    deciding = [k for i, k in enumerate(kinds) if i == 0 or k not in SUPPLEMENTARY]
    out: dict[str, Any] = {"safety": job["fix"].get("safety")}
    verdicts = {}
    for kind in deciding:
        if original[kind].verdict != CONFIRMED:
            continue
        outcome = run_kind(kind, side)
        _reset()
        verdicts[kind] = outcome.verdict
        out[kind] = {
            "verdict": outcome.verdict,
            "reason": outcome.reason,
            **_small(outcome.evidence),
        }
    if verdicts:
        values = list(verdicts.values())
        out["verdict"] = (
            CONFIRMED
            if CONFIRMED in values
            else NOT_REPRODUCED
            if NOT_REPRODUCED in values
            else COULD_NOT_RUN
        )
    numeric = original.get("numeric")
    if job["code"] in DIFFER:
        out["results"] = {
            "compared": False,
            "reason": "the fix is meant to change the result (the original computes a wrong value)",
        }
    elif numeric is not None and "compared" in numeric.evidence:
        out["results"] = {k: v for k, v in numeric.evidence.items() if k != "checks"}
    elif any(k in RESULT_PRESERVING for k in deciding):
        try:
            out["results"] = compare_sides(Side(job), side)
        except CouldNotRun as exc:
            out["results"] = {"compared": False, "reason": str(exc)}
        except VerifyTimeout:
            raise
        except Exception as exc:
            out["results"] = {
                "compared": False,
                "reason": f"{type(exc).__name__}: {short_message(exc)}",
            }
        _reset()
    return out


def _overlaps(a: Sequence[Sequence[Any]], b: Sequence[Sequence[Any]]) -> bool:
    def span(e: Sequence[Any]) -> tuple[tuple[int, int], tuple[int, int]]:
        return (e[0], e[1]), (e[2], e[3])

    for x in a:
        for y in b:
            (s1, e1), (s2, e2) = span(x), span(y)
            if s1 < e2 and s2 < e1 or s1 == e1 == s2 == e2:
                return True
    return False


def _small(evidence: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in evidence.items() if k not in ("internal",)}


def _reset() -> None:
    """Forget the user modules of the last check. JAX's caches are kept: every check loads the
    user's module afresh, so its functions are new objects that no cache entry can match, while
    JAX's own compiled helpers (samplers, jnp ops) stay warm across checks."""
    for name in [n for n in sys.modules if n.startswith("_jaxlint_verify_")]:
        sys.modules.pop(name, None)


def environment() -> dict[str, Any]:
    import jax

    try:
        backend = jax.default_backend()
        devices = jax.device_count()
    except Exception as exc:  # pragma: no cover
        backend, devices = f"unavailable: {exc}", 0
    return {"jax": jax.__version__, "backend": backend, "device_count": devices}


HUNG_EXIT = 86  # exit code of a worker whose watchdog gave up on a job


def _watchdog(state: dict[str, Any], limit: float, progress: str | None) -> None:
    """A job stuck where SIGALRM cannot reach it (inside XLA, a C extension): record it and end
    the process, so the parent can carry on with the other jobs in a fresh one."""
    while True:
        time.sleep(0.25)
        job = state.get("job")
        if job is not None and time.monotonic() - state["since"] > limit:
            if progress:
                try:
                    with open(progress, "a", encoding="utf-8") as handle:
                        handle.write(json.dumps({"hung": job, "seconds": limit}) + "\n")
                except OSError:
                    pass
            os._exit(HUNG_EXIT)


def worker(payload: dict[str, Any]) -> dict[str, Any]:
    """Sandbox entry: run every job, appending each result to `progress` (a JSON-lines file)."""
    import threading

    timeout = payload.get("timeout")
    progress = payload.get("progress")
    results = []
    env = environment()
    state: dict[str, Any] = {"job": None, "since": 0.0}
    if timeout:
        limit = 2 * float(timeout) + 15
        threading.Thread(target=_watchdog, args=(state, limit, progress), daemon=True).start()
    for job in payload["jobs"]:
        if progress:
            with open(progress, "a", encoding="utf-8") as handle:
                handle.write(json.dumps({"started": job["id"]}) + "\n")
        state.update(job=job["id"], since=time.monotonic())
        result = run_job(job, timeout)
        state.update(job=None)
        result = to_json(result)
        results.append(result)
        if progress:
            with open(progress, "a", encoding="utf-8") as handle:
                handle.write(json.dumps({"result": result}) + "\n")
    return {**env, "results": results}


def to_json(value: Any) -> Any:
    from jaxlint.runtime_checks.sandbox import to_jsonable

    return to_jsonable(value)


__all__ = [
    "CONFIRMED",
    "COULD_NOT_RUN",
    "NOT_REPRODUCED",
    "CouldNotRun",
    "Entry",
    "Outcome",
    "Probe",
    "Side",
    "UserModule",
    "capture_stdout",
    "confirmed",
    "could_not_run",
    "describe_exception",
    "exception_lines",
    "not_reproduced",
    "run_job",
    "stack_lines",
    "stopped",
    "worker",
]
