"""What the pytest plugin reads from a stack, a source line or a cache-miss record to tell a
test's own business (a note) from a sharp bit of the code under test (a finding).

Used by `jaxlint.runtime.pytest_runtime`; imports nothing of JAX at module level.
"""

from __future__ import annotations

import ast
import collections
import os
import re
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

STATIC_DIFF = re.compile(r"Static\(val=(?P<now>.*?)\) and before .*?Static\(val=(?P<before>.*?)\)")
INPUT_DIFF = re.compile(r"\* at (?P<where>.+?), now (?P<now>\S+) and before (?P<before>\S+)")


def tracers_in(value: Any, tracer_type: type, depth: int = 0) -> Iterator[Any]:
    """Tracers in a global: itself, in a container, or in an object's attributes (bounded)."""
    if isinstance(value, tracer_type):
        yield value
        return
    if depth >= 2 or isinstance(value, (type, types.ModuleType, types.FunctionType, str, bytes)):
        return
    if isinstance(value, dict):
        items: Any = list(value.values())[:1000]
    elif isinstance(value, (list, tuple, set, frozenset, collections.deque)):
        items = list(value)[:1000]
    elif hasattr(value, "__dict__") and not callable(value):
        try:
            items = list(vars(value).values())[:100]
        except TypeError:
            return
    else:
        return
    for sub in items:
        yield from tracers_in(sub, tracer_type, depth + 1)


TRACE_PLUMBING = ("partial_eval.py", "traceback_util.py", "api_util.py", "linear_util.py")


def traced_by() -> str:
    """What the user's code called that is tracing right now: "jit" when that JAX entry point
    is `jax.jit` (pjit.py), else its name (`cond`, `scan`, `eval_shape`...). From the Python
    stack of the cache-miss log record: the outermost frame of the run of JAX frames inside
    the innermost user call (`eval_shape` traces through jit's machinery, but is no jit)."""
    frame = sys._getframe(1)
    while frame is not None and "/jax/_src/" not in frame.f_code.co_filename.replace(os.sep, "/"):
        frame = frame.f_back  # the logging and filter frames
    outermost = None
    while frame is not None:
        filename = frame.f_code.co_filename.replace(os.sep, "/")
        if "/jax/" not in filename:
            break
        if filename.endswith("interpreters/mlir.py"):
            return "lowering"  # a primitive's lowering rule traced while JAX compiles
        if not filename.endswith(TRACE_PLUMBING):
            outermost = frame
        frame = frame.f_back
    if outermost is None:
        return "jit"
    if outermost.f_code.co_filename.endswith("pjit.py"):
        return "jit"
    return outermost.f_code.co_name


def renamed_wrapper(path: str, line: int, name: str) -> bool:
    """The jitted function defined at `line` is a generic wrapper renamed after what it wraps
    (`functools.wraps`: `def fun_wrapped` reported as `f`): a decorator such as equinox's
    `filter_jit` jits one per decorated function, which is one jit per function, not per call."""
    import linecache

    if name == "<lambda>":
        return False
    for offset in range(0, 16):  # the def line, or its decorators down to it
        text = linecache.getline(path, line + offset).strip()
        found = re.match(r"(?:async\s+)?def\s+(\w+)", text)
        if found:
            return found.group(1) != name
        if not text.startswith("@"):
            return False  # not a def statement (a lambda, a call): nothing renamed
    return False


def checker_broke(exc: BaseException) -> bool:
    """An error raised by JAX's key-reuse checking machinery itself (not a KeyReuseError)."""
    if "key_reuse" in str(exc):
        return True
    tb = exc.__traceback__
    while tb is not None:
        if (
            "key_reuse" in tb.tb_frame.f_code.co_name
            or "key_reuse" in tb.tb_frame.f_code.co_filename
        ):
            return True
        tb = tb.tb_next
    return False


def is_test_file(path: str, item: Any) -> bool:
    """A file of tests (pytest's naming, a conftest, or the test item's own module)."""
    name = os.path.basename(path)
    if name == "conftest.py" or (name.startswith("test_") or name.endswith("_test.py")):
        return True
    try:
        return os.path.realpath(path) == os.path.realpath(str(item.path))
    except Exception:
        return False


def consumed_key(value: Any) -> bool:
    """A typed key `jax.debug_key_reuse` already marked consumed."""
    try:
        return bool(getattr(value, "_consumed", False)) and "key" in str(value.dtype)
    except Exception:
        return False


def first_line(exc: BaseException | str) -> str:
    text = str(exc).strip()
    line = text.splitlines()[0] if text else type(exc).__name__
    return line if len(line) <= 300 else line[:297] + "..."


def diff_summary(detail: str, static: bool) -> str:
    if static:
        match = STATIC_DIFF.search(detail)
        if match:
            return f"now {match.group('now')}, before {match.group('before')}"
    match = INPUT_DIFF.search(detail)
    if match:
        return f"{match.group('where')} now {match.group('now')}, before {match.group('before')}"
    return detail[:200]


def mention_in_function(path: str, line: int, name: str) -> int | None:
    """First line inside the function defined at `line` of `path` that uses `name`."""
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return None
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        starts = {node.lineno, *(d.lineno for d in node.decorator_list)}
        if line not in starts:
            continue
        for sub in ast.walk(node):
            if (isinstance(sub, ast.Name) and sub.id == name) or (
                isinstance(sub, ast.Attribute) and sub.attr == name
            ):
                return sub.lineno
    return None


def declares_static_args(path: str, line: int) -> bool:
    """Whether the decorators from `line` down to the `def` name static arguments (text only:
    JAX reports a jitted function's definition at its first decorator line)."""
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return False
    head = []
    for text in lines[max(line - 1, 0) : line + 15]:
        head.append(text)
        if text.lstrip().startswith(("def ", "async def ")):
            break
    return "static_argnums" in "\n".join(head) or "static_argnames" in "\n".join(head)
