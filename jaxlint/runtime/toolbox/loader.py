"""Import a user's file by path and find a function in it, without running its `__main__` block.

The module gets a unique name (not `__main__`), so `if __name__ == "__main__":` code stays
unexecuted; its folder goes on `sys.path` so its sibling imports work. A function that is already a
`jax.jit` wrapper is unwrapped, so each tool can re-jit it with its own static and donated args.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from jaxlint.core.errors import UsageError


def split_ref(ref: str, name: str | None = None) -> tuple[Path, str]:
    """`"path/to/file.py::Class.method"` -> (path, "Class.method"); a bare path needs `name`."""
    path_text, sep, qualname = ref.partition("::")
    if not sep:
        qualname = name or ""
    elif name and name != qualname:
        raise UsageError(f"function given twice: {ref!r} and {name!r}")
    if not qualname:
        raise UsageError(f"no function named in {ref!r}; use PATH::FUNCTION (e.g. model.py::loss)")
    return Path(path_text), qualname


def load_module(path: str | Path) -> ModuleType:
    """Import the file at `path` under a unique module name; its `__main__` block does not run."""
    file = Path(path).expanduser()
    if not file.is_file():
        raise UsageError(f"no such file: {str(path)!r}")
    file = file.resolve()
    digest = hashlib.sha1(str(file).encode()).hexdigest()[:12]
    mod_name = f"_jaxlint_user_{_identifier(file.stem)}_{digest}"
    if mod_name in sys.modules:
        return sys.modules[mod_name]
    folder = str(file.parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(mod_name, file)
    if spec is None or spec.loader is None:
        raise UsageError(f"cannot import {str(path)!r} as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module  # dataclasses and pickling look the module up by name
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(mod_name, None)
        raise
    return module


def _identifier(text: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in text) or "module"


def load_function(
    ref: str, name: str | None = None, *, unwrap_jit: bool = True
) -> Callable[..., Any]:
    """Resolve `PATH::name`, `PATH::Class.method` (or `PATH` plus `name`) to a callable.

    An instance method is bound to `Class()` when the class takes no required arguments.
    """
    path, qualname = split_ref(ref, name)
    module = load_module(path)
    obj: Any = module
    owner: Any = None
    parts = qualname.split(".")
    for i, part in enumerate(parts):
        if not hasattr(obj, part):
            where = ".".join(parts[:i]) or str(path)
            raise UsageError(
                f"{where!s} has no attribute {part!r} (looking for {qualname!r} in {str(path)!r})"
            )
        owner, obj = obj, getattr(obj, part)
    if inspect.isclass(owner) and inspect.isfunction(obj) and _first_param(obj) == "self":
        try:
            obj = getattr(owner(), parts[-1])
        except Exception as exc:
            raise UsageError(
                f"{qualname!r} is an instance method and {owner.__name__}() could not be built "
                f"without arguments ({type(exc).__name__}: {exc}); expose a module-level function"
            ) from None
    if not callable(obj):
        raise UsageError(f"{qualname!r} in {str(path)!r} is not callable")
    return unwrap(obj) if unwrap_jit else obj


def _first_param(fn: Callable[..., Any]) -> str | None:
    try:
        params = list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return None
    return params[0] if params else None


def is_jit_wrapper(fn: Any) -> bool:
    """True for `jax.jit` (and pjit) wrappers: they expose `lower` and `__wrapped__`."""
    return hasattr(fn, "__wrapped__") and callable(getattr(fn, "lower", None))


def unwrap(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The Python function under a `jax.jit` wrapper; anything else is returned unchanged."""
    return getattr(fn, "__wrapped__", fn) if is_jit_wrapper(fn) else fn


def parameter_names(fn: Callable[..., Any]) -> list[str]:
    """Names of positional parameters, in order (empty when the signature is not inspectable)."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return []
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return [p.name for p in params if p.kind in kinds]


def argnums_for(
    fn: Callable[..., Any], names: str | list[str] | tuple[str, ...] | None, what: str
) -> tuple[int, ...]:
    """Positions for parameter names (or plain integers) given on the command line, e.g. `--static n`."""
    if not names:
        return ()
    items = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
    params = parameter_names(fn)
    nums: list[int] = []
    for item in items:
        if not item:
            continue
        if isinstance(item, int) or str(item).lstrip("-").isdigit():
            nums.append(int(item))
        elif item in params:
            nums.append(params.index(item))
        else:
            shown = ", ".join(params) or "none found"
            raise UsageError(
                f"--{what}: {getattr(fn, '__name__', 'function')} has no parameter {item!r} (parameters: {shown})"
            )
    return tuple(sorted(set(nums)))


def static_argnums_for(fn: Callable[..., Any], specs: Sequence[Any], names: Any) -> tuple[int, ...]:
    """`--static` names or positions, plus every position whose literal cannot be traced (a str)."""
    from jaxlint.runtime.toolbox.inputs import LiteralSpec

    nums = set(argnums_for(fn, names, "static"))
    nums |= {
        i for i, s in enumerate(specs) if isinstance(s, LiteralSpec) and isinstance(s.value, str)
    }
    return tuple(sorted(nums))


def check_arity(fn: Callable[..., Any], count: int, option: str = "--args") -> None:
    """A usage error, before anything runs, when `count` positional items cannot be passed to
    `fn` (too many, or a required parameter left out): not a TypeError from deep inside JAX."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return
    try:
        signature.bind(*range(count))
    except TypeError as exc:
        name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", "the function")
        params = ", ".join(signature.parameters) or "no parameters"
        raise UsageError(
            f"{option} gives {count} item{'s' if count != 1 else ''} for `{name}({params})`: {exc}"
        ) from None


def load_call(
    payload: dict[str, Any],
) -> tuple[Callable[..., Any], list[Any], tuple[int, ...], tuple[int, ...]]:
    """What the `probe` and `bench` workers start from: the payload's function, its parsed
    `args` specs (checked against its signature) and the positions of its `static` and `donate`
    parameters; a usage error before anything runs."""
    from jaxlint.runtime.toolbox.inputs import parse_specs

    fn = load_function(payload["function"])
    specs = parse_specs(payload.get("args") or "")
    check_arity(fn, len(specs))
    static = static_argnums_for(fn, specs, payload.get("static"))
    donate = argnums_for(fn, payload.get("donate"), "donate")
    return fn, specs, static, donate
