"""Child half of `jaxlint verify --capture-main/--capture-cmd`: record real inputs of functions.

Installed by the `sitecustomize` that `capture.run_capture` puts first on the child's PYTHONPATH,
so it is active in every Python process the captured command starts (`python train.py`,
`pytest tests/ -x`, their subprocesses). It never imports JAX itself and records nothing but
abstract signatures.

A `sys.monitoring` PY_START hook (Python 3.12+; a `sys.setprofile` hook before) sees each
Python call and switches itself off for each code object that is not a target at its first
call, so the program runs at full speed elsewhere. Calls of code objects from the target file
whose first line is a known function (module-level def, method of a module-level class, module-level
`name = jax.jit(lambda ...)`) get their positional arguments described in the spec language of
`inputs.py`: `f32[4,8]` for arrays (tracers included: a jitted function is seen while JAX
traces it, with the abstract value it was traced for), `key` / `legacy-key` for PRNG keys,
Python literals for static values, `{'w': f32[4,8]}` / `(f32[2], 3)` for pytrees,
`Model(w=f32[4], n=3)` for objects (`self` of a method, NamedTuple states, flax.linen Modules by
their dataclass fields) and `__ref__('jax.nn', 'relu')` for module-level callables. A value it
cannot describe is recorded as null (the verifier then falls back to the other input sources).

Up to `max_calls` distinct signatures per function are kept. Once every target function has been
seen, recording goes on for `settle` seconds (or until each has `max_calls`), then the hook writes
its file and ends the process: the rest of a training run or test session is not needed. The
result file (one per process, `capture-<pid>.json` in the output folder) is rewritten atomically
after every new signature, so a timeout or crash keeps what was seen.
"""

from __future__ import annotations

import ast
import json
import os
import re
import sys
import threading
import time
from typing import Any

# imports only os, stat and tempfile: light enough for every process the hook runs in
from jaxlint.files.write import write_atomic

CONFIG_ENV = "JAXLINT_CAPTURE"
# sys.monitoring tool ids free for any use (0-2 and 5 are the debugger's, coverage's, the
# profiler's and the optimizer's, which the user's own run may need)
_TOOL_IDS = (4, 3)
MAX_TEXT = 4000  # longer descriptions (huge Python lists) are not useful inputs
MAX_DEPTH = 5
KEY_NAMES = re.compile(
    r"^(key|rng|prng|subkey|sub_key|rng_key|prng_key|keys|.*_key|key_.*|.*rng.*)$"
)
_SHORT = {
    "bool": "bool",
    "float16": "f16",
    "bfloat16": "bf16",
    "float32": "f32",
    "float64": "f64",
    "int8": "i8",
    "int16": "i16",
    "int32": "i32",
    "int64": "i64",
    "uint8": "u8",
    "uint16": "u16",
    "uint32": "u32",
    "uint64": "u64",
    "complex64": "c64",
    "complex128": "c128",
}


class Unrepresentable(Exception):
    """A value with no spec (an open file, a generator, a closure...)."""


def function_lines(source: str) -> dict[int, str]:
    """First line (decorator lines too) -> qualname for every function capture can name."""
    tree = ast.parse(source)
    out: dict[int, str] = {}

    def add(node: ast.AST, qualname: str) -> None:
        out.setdefault(node.lineno, qualname)  # type: ignore[attr-defined]
        for deco in getattr(node, "decorator_list", []):
            out.setdefault(deco.lineno, qualname)

    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            add(stmt, stmt.name)
        elif isinstance(stmt, ast.ClassDef):
            for sub in stmt.body:
                if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    add(sub, f"{stmt.name}.{sub.name}")
        elif (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
        ):
            for sub in ast.walk(stmt.value):
                if isinstance(sub, ast.Lambda):
                    out.setdefault(sub.lineno, stmt.targets[0].id)
                    break
    return out


MAPPING_TRANSFORMS = ("pmap", "shard_map")


def module_wrappers(tree: ast.Module) -> dict[str, str]:
    """`W = jax.pmap(f, ...)`, `W = jax.jit(jax.shard_map(f, ...))` at module level, f a
    module-level def: {W: f}. Their bodies bind axis names (`lax.pmean(g, "batch")`), so they
    only run through W, called with the program's global (unsharded) inputs."""
    defs = {s.name for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
    out: dict[str, str] = {}
    for stmt in tree.body:
        if not (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
        ):
            continue
        for sub in ast.walk(stmt.value):
            if not isinstance(sub, ast.Call):
                continue
            func = sub.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            first = sub.args[0] if sub.args else None
            if first is None:
                first = next((k.value for k in sub.keywords if k.arg in ("f", "fun")), None)
            if name in MAPPING_TRANSFORMS and isinstance(first, ast.Name) and first.id in defs:
                out[stmt.targets[0].id] = first.id
                break
    return out


def call_site_values(
    tree: ast.Module, frame: Any, callee: str, params: tuple[str, ...]
) -> dict[str, Any] | None:
    """The arguments of the call `callee(...)` the user's `frame` is making, by parameter name:
    read from the call's own expressions (names, attributes, constants, a dict/list/tuple
    item), located by the frame's current instruction. None when the call is not found or an
    argument is anything else (evaluating it could run code)."""
    positions = None
    try:
        positions = list(frame.f_code.co_positions())[frame.f_lasti // 2]
    except Exception:
        positions = None
    line = frame.f_lineno
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        if node.func.id != callee:
            continue
        if positions and positions[0] is not None and positions[1] is not None:
            if not (
                node.lineno <= positions[0] and (node.end_lineno or node.lineno) >= positions[1]
            ):
                continue
        elif node.lineno != line:
            continue
        found.append(node)
    if not found:
        return None
    call = min(found, key=lambda n: ((n.end_lineno or n.lineno) - n.lineno, n.col_offset))
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return None
    values: dict[str, Any] = {}
    pairs = [*zip(params, call.args), *((str(k.arg), k.value) for k in call.keywords)]
    for name, expr in pairs:
        try:
            values[name] = _read(expr, frame)
        except Unrepresentable as exc:  # `p(jnp.ones(...))`: this input stays unknown
            values[name] = exc
    return values


_MISSING = object()


def _read(expr: ast.AST, frame: Any) -> Any:
    if isinstance(expr, ast.Constant):
        return expr.value
    if isinstance(expr, ast.Name):
        for scope in (frame.f_locals, frame.f_globals, frame.f_builtins):
            if expr.id in scope:
                return scope[expr.id]
        raise Unrepresentable("unbound name")
    if isinstance(expr, ast.Attribute):
        owner = _read(expr.value, frame)
        if isinstance(owner, type(sys)) or hasattr(type(owner), "_fields"):
            return getattr(owner, expr.attr)  # a module's or a NamedTuple's field: no code runs
        value = vars(owner).get(expr.attr, _MISSING) if hasattr(owner, "__dict__") else _MISSING
        if value is _MISSING:
            raise Unrepresentable("attribute")
        return value
    if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant):
        owner = _read(expr.value, frame)
        if type(owner) in (dict, list, tuple):
            return owner[expr.slice.value]
    raise Unrepresentable("expression")


# --------------------------------------------------------------------------- describing values


class Describer:
    def __init__(self, user_file: str) -> None:
        self.user_file = user_file
        # flax.nnx Modules of this file, by class: the constructor call that built one
        # (`Block(din=4, dout=8, rngs=flax.nnx.Rngs(default=0))`), recorded at its `__init__`;
        # an nnx object is rebuilt by calling that again (its state is a graph, not fields)
        self.nnx_inits: dict[type, str] = {}

    def __call__(self, value: Any, name: str = "", depth: int = 0) -> str:
        if depth > MAX_DEPTH:
            raise Unrepresentable("too deep")
        if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
            return self._literal(value)
        shape = getattr(value, "shape", None)
        dtype = getattr(value, "dtype", None)
        if isinstance(shape, tuple) and dtype is not None and not isinstance(value, type):
            return self._array(shape, dtype, name)
        if isinstance(value, tuple) and hasattr(type(value), "_fields"):
            fields = {f: getattr(value, f) for f in type(value)._fields}
            return self._object(type(value), fields, depth)
        if isinstance(value, (tuple, list)):
            items = [self(v, name, depth + 1) for v in value]
            if isinstance(value, tuple):
                return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
            return "[" + ", ".join(items) + "]"
        if isinstance(value, dict):
            if type(value) is not dict and not type(value).__name__.endswith("FrozenDict"):
                raise Unrepresentable(type(value).__name__)
            parts = []
            for k, v in value.items():
                if not isinstance(k, (str, int)):
                    raise Unrepresentable("dict key")
                parts.append(f"{k!r}: {self(v, str(k), depth + 1)}")
            return "{" + ", ".join(parts) + "}"
        nnx_kind = _nnx_kind(value)
        if nnx_kind == "rngs":
            return "flax.nnx.Rngs(default=0)"  # the seed is not the point: a fixed one
        if nnx_kind == "object":
            built = self.nnx_inits.get(type(value))
            if built is None:
                raise Unrepresentable("flax.nnx object not built by this file's classes")
            return built
        if _is_linen_module(value):
            import dataclasses

            fields = {
                f.name: getattr(value, f.name)
                for f in dataclasses.fields(value)
                if f.init and f.name not in ("parent", "name")
            }
            return self._object(type(value), fields, depth)
        if callable(value) and hasattr(value, "__qualname__") and hasattr(value, "__module__"):
            return self._ref(value)
        if hasattr(value, "__dict__") and not isinstance(value, type):
            fields = dict(vars(value))
            return self._object(type(value), fields, depth)
        raise Unrepresentable(type(value).__name__)

    def _literal(self, value: Any) -> str:
        text = repr(value)
        try:
            if ast.literal_eval(text) != value and value == value:
                raise Unrepresentable("literal")
        except (ValueError, SyntaxError):
            raise Unrepresentable("literal") from None
        return text

    def _array(self, shape: tuple[Any, ...], dtype: Any, name: str) -> str:
        dims = ",".join(str(int(d)) for d in shape)
        text = str(dtype)
        if text.startswith("key<"):
            return f"key[{dims}]" if dims else "key"
        short = _SHORT.get(getattr(dtype, "name", text), _SHORT.get(text))
        if short is None:
            raise Unrepresentable(f"dtype {text}")
        if short == "u32" and shape and int(shape[-1]) == 2 and KEY_NAMES.match(name or ""):
            batch = ",".join(str(int(d)) for d in shape[:-1])
            return f"legacy-key[{batch}]" if batch else "legacy-key"
        return f"{short}[{dims}]"

    def _class_name(self, cls: type) -> str:
        qual = getattr(cls, "__qualname__", "")
        if "<locals>" in qual or not qual:
            raise Unrepresentable("local class")
        module = sys.modules.get(getattr(cls, "__module__", ""), None)
        if _same_file(getattr(module, "__file__", None), self.user_file):
            return qual
        return f"{cls.__module__}.{qual}"

    def _object(self, cls: type, fields: dict[str, Any], depth: int) -> str:
        name = self._class_name(cls)
        parts = []
        for key, value in fields.items():
            if not key.isidentifier():
                raise Unrepresentable("field name")
            parts.append(f"{key}={self(value, key, depth + 1)}")
        return f"{name}({', '.join(parts)})"

    def _ref(self, value: Any) -> str:
        if callable(getattr(value, "lower", None)) and hasattr(value, "__wrapped__"):
            # a `jax.jit(f, donate_argnums=...)` wrapper: a reference to `f` would drop its
            # options (a new user's repro, stop 53: the donation was lost and the verdict read
            # not-reproduced on a real bug)
            raise Unrepresentable("a jitted function (its jit options would be lost)")
        qual = value.__qualname__
        module = sys.modules.get(value.__module__)
        if "<" in qual:  # a lambda: fine when a module-level name holds it (`_identity =
            # lambda x: x`, an equinox MLP's final_activation); closures are not
            named = (
                [k for k, v in list(vars(module).items()) if v is value and k.isidentifier()]
                if module is not None
                else []
            )
            if not named:
                raise Unrepresentable("local function")
            qual = named[0]
        if _same_file(getattr(module, "__file__", None), self.user_file):
            return f"__ref__('', {qual!r})"
        return f"__ref__({value.__module__!r}, {qual!r})"


def _nnx_kind(value: Any) -> str | None:
    """'rngs' for a flax.nnx.Rngs, 'object' for another nnx Module/Pytree, else None."""
    nnx = sys.modules.get("flax.nnx")
    if nnx is None:
        return None
    if isinstance(value, getattr(nnx, "Rngs", ())):
        return "rngs"
    base = (
        getattr(nnx, "Pytree", None) or getattr(nnx, "Object", None) or getattr(nnx, "Module", None)
    )
    if base is not None and isinstance(value, base) and not isinstance(value, type):
        return "object"
    return None


def _is_linen_module(value: Any) -> bool:
    linen = sys.modules.get("flax.linen")
    module = getattr(linen, "Module", None) if linen is not None else None
    return module is not None and isinstance(value, module)


_REAL: dict[str, str] = {}


def _real(path: str) -> str:
    got = _REAL.get(path)
    if got is None:
        got = _REAL[path] = os.path.realpath(path)
    return got


def _same_file(a: str | None, b: str) -> bool:
    return bool(a) and _real(a) == b  # type: ignore[arg-type]


# --------------------------------------------------------------------------- the recorder


class Recorder:
    def __init__(self, config: dict[str, Any]) -> None:
        self.file = os.path.realpath(config["file"])
        self.lines = {int(k): v for k, v in config["functions"].items()}
        self.targets = set(config.get("targets") or self.lines.values())
        self.max_calls = int(config.get("max_calls", 3))
        self.settle = float(config.get("settle", 2.0))
        self.stop_early = bool(config.get("stop", True))
        self.out = os.path.join(config["out"], f"capture-{os.getpid()}.json")
        self.describe = Describer(self.file)
        # `W = jax.pmap(f)`: a call of f is also a call of W, whose inputs are the call site's
        self.wrapped_by: dict[str, list[str]] = {}
        for wrapper, inner in (config.get("wrappers") or {}).items():
            self.wrapped_by.setdefault(inner, []).append(wrapper)
        self._tree: ast.Module | None = None
        self.files: dict[str, bool] = {}
        self.records: dict[str, dict[str, Any]] = {}
        self.seen_all_at: float | None = None
        self.done = False
        self.lock = threading.Lock()
        self.busy = False
        self.tool: int | None = None  # the sys.monitoring tool id, when installed that way
        self.installed = False

    def install(self) -> None:
        self.installed = True
        monitoring = getattr(sys, "monitoring", None)  # Python 3.12+
        if monitoring is not None:
            for tool in _TOOL_IDS:
                try:
                    monitoring.use_tool_id(tool, "jaxlint-capture")
                except ValueError:
                    continue  # in use (by the user's own tools): try the next one
                self.tool = tool
                monitoring.register_callback(tool, monitoring.events.PY_START, self.on_start)
                monitoring.set_events(tool, monitoring.events.PY_START)
                return
        sys.setprofile(self.profile)
        threading.setprofile(self.profile)

    def uninstall(self) -> None:
        if not self.installed:
            return
        self.installed = False
        if self.tool is not None:
            monitoring = sys.monitoring
            tool, self.tool = self.tool, None
            monitoring.set_events(tool, 0)
            monitoring.register_callback(tool, monitoring.events.PY_START, None)
            monitoring.free_tool_id(tool)
            return
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]

    def on_start(self, code: Any, offset: int) -> Any:
        """`sys.monitoring` PY_START: each code object of another file (or of this file but no
        target) is switched off at its first call, so the program runs at full speed except
        for the calls recorded (a `setprofile` hook paid for every call of JAX's tracing)."""
        filename = code.co_filename
        mine = self.files.get(filename)
        if mine is None:
            mine = self.files[filename] = _real(filename) == self.file
        if not mine:
            return sys.monitoring.DISABLE
        qualname = self.lines.get(code.co_firstlineno)
        if qualname is None or code.co_name == "<module>":
            return sys.monitoring.DISABLE
        if self.busy or self.done:
            return None
        frame = sys._getframe(1)
        while frame is not None and frame.f_code is not code:
            frame = frame.f_back  # the callback's own callers (a wrapper of it)
        if frame is None:
            return None
        self.busy = True
        try:
            with self.lock:
                self.record(frame, code, qualname)
        except Exception:  # the recorder must never break the user's program
            pass
        finally:
            self.busy = False
        return None

    def settled(self) -> None:
        """The settle time after every target was seen is over (a timer: with `on_start`,
        other files' calls no longer tick `maybe_finish`, and a long compile has none)."""
        with self.lock:
            if self.done:
                return
            self._finish()
        self._stop_if_early()

    def profile(self, frame: Any, event: str, arg: Any) -> None:
        if event != "call" or self.busy:
            return
        code = frame.f_code
        filename = code.co_filename
        mine = self.files.get(filename)
        if mine is None:
            mine = self.files[filename] = _real(filename) == self.file
        if not mine:
            if self.seen_all_at is not None:
                self.maybe_finish()
            return
        qualname = self.lines.get(code.co_firstlineno)
        if qualname is None or code.co_name == "<module>":
            return  # a module whose first line is a def is no call of that def
        self.busy = True
        try:
            self.record(frame, code, qualname)
        except Exception:  # the recorder must never break the user's program
            pass
        finally:
            self.busy = False

    def record(self, frame: Any, code: Any, qualname: str) -> None:
        if qualname.endswith(".__init__"):
            self.record_nnx_init(frame, code)
        for wrapper in self.wrapped_by.get(qualname, ()):
            try:
                self.record_wrapper(frame, code, wrapper)
            except Exception:
                pass
        entry = self.records.setdefault(qualname, {"calls": 0, "signatures": []})
        entry["calls"] += 1
        if len(entry["signatures"]) >= self.max_calls:
            self.maybe_finish()
            return
        names = code.co_varnames[: code.co_argcount]  # positional-only ones included
        local = frame.f_locals
        inputs: list[list[Any]] = []
        for name in names:
            if name not in local:
                inputs.append([name, None, "unbound"])
                continue
            inputs.append(self._input(name, local[name]))
        key = json.dumps([i[:2] for i in inputs])
        if all(json.dumps([i[:2] for i in s["inputs"]]) != key for s in entry["signatures"]):
            caller = frame.f_back
            entry["signatures"].append(
                {"inputs": inputs, "called_from": _where(caller) if caller is not None else None}
            )
            self.write()
        if self.seen_all_at is None and self.targets <= set(self.records):
            self.seen_all_at = time.monotonic()
            if self.tool is not None:
                timer = threading.Timer(self.settle, self.settled)
                timer.daemon = True
                timer.start()
        self.maybe_finish()

    def record_nnx_init(self, frame: Any, code: Any) -> None:
        """`Block.__init__(self, din, dout, rngs)` of a flax.nnx Module: how to build one again."""
        local = frame.f_locals
        names = code.co_varnames[: code.co_argcount]
        if not names or _nnx_kind(local.get(names[0])) != "object":
            return
        cls = type(local[names[0]])
        if cls in self.describe.nnx_inits:
            return
        parts = []
        for name in names[1:]:
            if name not in local:
                return
            parts.append(f"{name}={self.describe(local[name], name)}")
        self.describe.nnx_inits[cls] = f"{self.describe._class_name(cls)}({', '.join(parts)})"

    def record_wrapper(self, frame: Any, code: Any, wrapper: str) -> None:
        """`f` runs under `W = jax.pmap(f)`: record W's call, read at the user's call site (W
        itself is JAX's object, not Python code of this file, so it has no call event)."""
        caller = frame.f_back
        for _ in range(200):
            if caller is None or _real(caller.f_code.co_filename) == self.file:
                break
            caller = caller.f_back
        if caller is None:
            return
        if self._tree is None:
            with open(self.file, encoding="utf-8") as handle:
                self._tree = ast.parse(handle.read())
        params = code.co_varnames[: code.co_argcount]
        try:
            values = call_site_values(self._tree, caller, wrapper, params)
        except Unrepresentable:
            return
        if values is None:
            return
        entry = self.records.setdefault(wrapper, {"calls": 0, "signatures": []})
        entry["calls"] += 1
        if len(entry["signatures"]) >= self.max_calls:
            return
        inputs: list[list[Any]] = []
        for name in params:
            if name not in values:
                continue
            if isinstance(values[name], Unrepresentable):
                inputs.append([name, None, str(values[name])])
                continue
            inputs.append(self._input(name, values[name]))
        key = json.dumps([i[:2] for i in inputs])
        if all(json.dumps([i[:2] for i in s["inputs"]]) != key for s in entry["signatures"]):
            entry["signatures"].append({"inputs": inputs, "called_from": _where(caller)})
            self.write()

    def _input(self, name: str, value: Any) -> list[Any]:
        """`[name, spec text, None]`, or `[name, None, why not]` when it cannot be described."""
        try:
            text = self.describe(value, name)
            if len(text) > MAX_TEXT:
                raise Unrepresentable("too long")
            return [name, text, None]
        except Unrepresentable as exc:
            return [name, None, str(exc)]
        except Exception as exc:
            return [name, None, f"{type(exc).__name__}"]

    def maybe_finish(self) -> None:
        if self.done or self.seen_all_at is None:
            return
        full = all(
            len(self.records.get(t, {}).get("signatures", [])) >= self.max_calls
            for t in self.targets
        )
        if full or time.monotonic() - self.seen_all_at >= self.settle:
            self._finish()
            self._stop_if_early()

    def _finish(self) -> None:
        """Recording is over: unhook and write the complete record."""
        self.done = True
        self.uninstall()
        self.write(complete=True)

    def _stop_if_early(self) -> None:
        """With `stop_early`, end the program now that its inputs are recorded."""
        if not self.stop_early:
            return
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:
            pass
        os._exit(0)

    def write(self, complete: bool = False) -> None:
        data = {"pid": os.getpid(), "complete": complete, "functions": self.records}
        write_atomic(self.out, json.dumps(data).encode("utf-8"), durable=False)


def _where(frame: Any) -> str:
    """The nearest caller outside installed packages (a jitted function's caller is JAX)."""
    first = frame
    for _ in range(60):
        if frame is None:
            break
        name = frame.f_code.co_filename
        if "site-packages" not in name and not name.startswith("<"):
            first = frame
            break
        frame = frame.f_back
    return f"{os.path.basename(first.f_code.co_filename)}:{first.f_lineno}"


_recorder: Recorder | None = None


def install_from_env() -> None:
    """Called by the capture `sitecustomize`: read the config named by $JAXLINT_CAPTURE."""
    global _recorder
    path = os.environ.get(CONFIG_ENV)
    if not path or _recorder is not None:
        return
    with open(path, encoding="utf-8") as handle:
        config = json.load(handle)
    limit = config.get("memory_mb")
    if limit:
        import resource

        size = int(limit) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size, size))
    _recorder = Recorder(config)
    _recorder.install()
    import atexit

    atexit.register(_at_exit)


def _at_exit() -> None:
    if _recorder is not None and not _recorder.done:
        _recorder.uninstall()
        _recorder.write(complete=True)
