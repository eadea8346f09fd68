"""Conditions that prove a value concrete (or a tracer) in one of their branches.

Code guarded by `isinstance(x, np.ndarray)`, `not_jax_tracer(x)`, `hasattr(x, "aval")` or
`hasattr(x, "device_buffer")` handles tracers on purpose: the taint analysis binds the names
such a test proves concrete to "not traced" in the branch where that holds
(`TaintAnalysis.concrete_guard`). A module of its own because it is a pure function of the
syntax and the import facts: no taint state.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable
from functools import reduce
from typing import TypeVar

from jaxlint.analysis.imports import ModuleIndex, dotted
from jaxlint.analysis.jax_api import TRACER_ERRORS
from jaxlint.analysis.kinds import ARRAY_TYPES, HOST_TYPES
from jaxlint.analysis.kinds import concrete_attribute as _concrete_attribute
from jaxlint.analysis.kinds import tracer_attribute as _tracer_attribute

T = TypeVar("T", set[str], bool)

# helper names that test whether a value is concrete (`not_jax_tracer(x)`, `is_concrete(x)`)
_CONCRETE_TEST = re.compile(r"(^|_)(not_\w*tracer|is_concrete|concrete|is_constant|is_static)")


def concrete_guard(index: ModuleIndex, test: ast.AST, _depth: int = 0) -> tuple[set[str], set[str]]:
    """Names a condition proves concrete: (where it holds, where it fails).

    `not_jax_tracer(x)`, `is_concrete(x)` hold for concrete `x`; `isinstance(x, Tracer)` and
    `hasattr(x, "shape")` fail for it. Code guarded this way handles tracers on purpose. A
    flag assigned once from such a test proves what the test does (`cacheable =
    jax.core.is_concrete(a) and jax.core.is_concrete(b)` ... `if cacheable:`: v20
    jax-power cov3.py:620, JAX101 x2, tuning material)."""
    return _through_logic(test, lambda t: _concrete_leaf(index, t, _depth), set)


def _through_logic(
    test: ast.AST, leaf: Callable[[ast.AST], tuple[T, T]], empty: Callable[[], T]
) -> tuple[T, T]:
    """A guard's (where it holds, where it fails) through `not` (swaps the arms), `and`
    (what any operand proves where the whole test holds) and `or` (where it fails), from
    what `leaf` says of each operand; `empty` makes the "proves nothing" value."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        holds, fails = _through_logic(test.operand, leaf, empty)
        return fails, holds
    if isinstance(test, ast.BoolOp):
        parts = [_through_logic(v, leaf, empty) for v in test.values]
        side = 0 if isinstance(test.op, ast.And) else 1
        proved = reduce(operator.or_, (p[side] for p in parts), empty())
        return (proved, empty()) if side == 0 else (empty(), proved)
    return leaf(test)


def _concrete_leaf(index: ModuleIndex, test: ast.AST, depth: int) -> tuple[set[str], set[str]]:
    """`concrete_guard` of one test that is not `not`, `and` or `or`."""
    if isinstance(test, ast.Name) and depth < 2:
        b = index.binding(test.id, index.scope_of(test))
        if b is not None and b.kind == "assign" and isinstance(b.value, (ast.BoolOp, ast.Call)):
            return concrete_guard(index, b.value, depth + 1)  # the one test it holds
        return set(), set()
    if not isinstance(test, ast.Call) or not test.args:
        return set(), set()
    first = test.args[0]
    # `isinstance(xs[0], np.ndarray)`: an element of a container shows what the container
    # holds (under a transform every leaf of an argument is a tracer), so the guard proves
    # the container concrete where it proves the element concrete
    while isinstance(first, ast.Subscript):
        first = first.value
    if not isinstance(first, ast.Name):
        return set(), set()
    if index.qualname(test.func) == "isinstance" and len(test.args) == 2:
        kinds = test.args[1]
        elts = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
        if any("Tracer" in (dotted(e) or "") for e in elts):
            return set(), {first.id}
        types = {index.qualname(e) for e in elts}
        if types <= HOST_TYPES:
            return {first.id}, set()  # a tracer is never a NumPy array or a Python scalar
        if types <= ARRAY_TYPES:
            return set(), {first.id}  # not a jax.Array: a Python (or NumPy) value
        return set(), set()
    if index.qualname(test.func) == "hasattr" and _tracer_attribute(test.args[1:]):
        return set(), {first.id}  # every tracer has it: where it is missing, no tracer
    if index.qualname(test.func) == "hasattr" and _concrete_attribute(test.args[1:]):
        return {first.id}, set()  # no tracer has it: where it is there, no tracer
    last = (dotted(test.func) or "").rsplit(".", 1)[-1].lower()
    if _CONCRETE_TEST.search(last):
        return {first.id}, set()
    if "tracer" in last or "traced" in last:
        return set(), {first.id}
    return set(), set()


# the flag `jax.disable_jit()` sets (`jax.config.read("jax_disable_jit")` raises in JAX 0.12:
# flags with a context manager are read as attributes)
_DISABLE_JIT = "jax.config.jax_disable_jit"


def jit_disabled(index: ModuleIndex, test: ast.AST) -> tuple[bool, bool]:
    """(where it holds, where it fails) the test proves jit disabled.

    `if jax.config.jax_disable_jit:` guards debugging code (asserts on values, NumPy checks)
    that runs only when `jax.disable_jit()` is on, so never inside a jit trace (ssm-jax's
    `laplace_em`); `and` keeps the proof where the whole test holds, `not` swaps the arms."""

    def leaf(t: ast.AST) -> tuple[bool, bool]:
        return isinstance(t, ast.Attribute) and index.qualname(t) == _DISABLE_JIT, False

    return _through_logic(test, leaf, bool)


# the bases of JAX's tracer errors (each is a `jax.errors.JAXTypeError`, a `TypeError`), and a
# bare `except:`, which catch them too
_TRACER_ERROR_BASES = frozenset({"TypeError", "Exception", "BaseException"})


def catches_tracer_errors(node: ast.AST) -> bool:
    """A `try` that probes for concreteness on purpose: a handler for JAX's tracer errors, or
    a one-statement body with a handler that catches them through a base class (`try: return
    float(jnp.asarray(v))` / `except Exception: return v`: v33 gyaradax precompute.py:87 and
    :97, JAX101 x2, tuning material). A longer body under a catch-all handler may be catching
    something else, and keeps its findings."""
    handlers = getattr(node, "handlers", ())
    probe = len(getattr(node, "body", ())) == 1
    for handler in handlers:
        if handler.type is None:
            if probe:
                return True
            continue
        types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        for t in types:
            name = dotted(t) or ""
            if any(err in name for err in TRACER_ERRORS):
                return True
            if probe and name.rsplit(".", 1)[-1] in _TRACER_ERROR_BASES:
                return True
    return False
