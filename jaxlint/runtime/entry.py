"""The user's module and the function a job calls (runs in the sandboxed child only).

`UserModule` executes one source text afresh as a module (never `__main__`); `Entry` finds the
flagged function in it (plain call, under `jax.jit`, a method, a factory's result...), builds its
inputs and calls it. Both sit below the verifier kinds (`kinds.*`) and the runner (`runner`), so
no kind imports the runner. JAX is imported inside functions.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import itertools
import os
import sys
import types
from collections.abc import Callable, Sequence
from typing import Any

from jaxlint.runtime.kit import (
    CouldNotRun,
    VerifyTimeout,
    exception_lines,
    short_message,
)

_counter = itertools.count()


# --------------------------------------------------------------------------- user module


class UserModule:
    """A fresh execution of one source text as a module (never `__main__`)."""

    def __init__(self, path: str, source: str, filename: str, *, run_main: bool = False) -> None:
        self.path = path
        # run the body of `if __name__ == "__main__":` too (a finding in that block, with
        # --capture-main: the user asked for their program's main code to run)
        self.run_main = run_main
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
        from jaxlint.runtime.capture import is_main_block

        for stmt in self.tree.body:
            if stop_after is not None and stmt.lineno > stop_after:
                break
            if self.run_main and is_main_block(stmt):
                for inner in stmt.body:  # type: ignore[attr-defined]
                    self.run_statements([inner], around)
                continue
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


def _has_array_leaf(value: Any) -> bool:
    """Some leaf of the pytree is an array."""
    import jax
    import numpy as np

    try:
        leaves = jax.tree.leaves(value)
    except Exception:
        return False
    return any(isinstance(leaf, (jax.Array, np.ndarray)) for leaf in leaves)


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
            from jaxlint.runtime.toolbox.inputs import materialize, parse_item

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
        from jaxlint.runtime.toolbox.inputs import (
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
        # an array (or a pytree holding one) is never a static argument of our own jax.jit:
        # it cannot be hashed, so jit would fail on our inputs rather than the user's code (a
        # vmap `in_axes=None` argument, a scan body's closure constant the analysis saw used
        # like a constant); traced, it reaches the flagged line as the program's does
        values = dict(zip(names, resolved))
        self.static = [
            s
            for s in self.static
            if not (s in values and _has_array_leaf(values[s]) and not _hashable(values[s]))
        ]

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
