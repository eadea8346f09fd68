"""Conditions that prove a value concrete (or a tracer) in one of their branches.

Code guarded by `isinstance(x, np.ndarray)`, `not_jax_tracer(x)` or `hasattr(x, "aval")`
handles tracers on purpose: the taint analysis binds the names such a test proves concrete to
"not traced" in the branch where that holds (`TaintAnalysis.concrete_guard`). A module of its
own because it is a pure function of the syntax and the import facts: no taint state.
"""

from __future__ import annotations

import ast
import re

from jaxlint.analysis.imports import ModuleIndex, dotted
from jaxlint.analysis.kinds import ARRAY_TYPES, HOST_TYPES
from jaxlint.analysis.kinds import tracer_attribute as _tracer_attribute

# helper names that test whether a value is concrete (`not_jax_tracer(x)`, `is_concrete(x)`)
_CONCRETE_TEST = re.compile(r"(^|_)(not_\w*tracer|is_concrete|concrete|is_constant|is_static)")


def concrete_guard(index: ModuleIndex, test: ast.AST) -> tuple[set[str], set[str]]:
    """Names a condition proves concrete: (where it holds, where it fails).

    `not_jax_tracer(x)`, `is_concrete(x)` hold for concrete `x`; `isinstance(x, Tracer)` and
    `hasattr(x, "shape")` fail for it. Code guarded this way handles tracers on purpose."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        holds, fails = concrete_guard(index, test.operand)
        return fails, holds
    if isinstance(test, ast.BoolOp):
        parts = [concrete_guard(index, v) for v in test.values]
        if isinstance(test.op, ast.And):
            return set().union(*(p[0] for p in parts)), set()
        return set(), set().union(*(p[1] for p in parts))
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
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        holds, fails = jit_disabled(index, test.operand)
        return fails, holds
    if isinstance(test, ast.BoolOp):
        parts = [jit_disabled(index, v) for v in test.values]
        if isinstance(test.op, ast.And):
            return any(p[0] for p in parts), False
        return False, any(p[1] for p in parts)
    if isinstance(test, ast.Attribute):
        return index.qualname(test) == _DISABLE_JIT, False
    return False, False
