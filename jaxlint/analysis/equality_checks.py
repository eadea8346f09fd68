"""Values read only to be compared with each other: a same-key determinism check.

Drawing twice from one key gives the same numbers. That is a bug when the two draws are meant
to be independent, and the point of the code when the two results are compared for equality:
a test that runs one draw on two devices, two implementations or two code paths and asserts
that the outputs agree (`um = np.asarray(uniform(k, s))` under one device, `uc = ...` under
another, `np.testing.assert_array_equal(um, uc)`; v17 rows, tuning material: metaljax
tests/test_random.py:46-50, JAX201).

The fact is proven, never assumed: each draw's value (through arithmetic, pure `jax.numpy` /
`jax.lax` / `jax.nn` functions and host copies such as `np.asarray`) is bound to a plain name
whose every load is an operand of an equality check (an `==` / `!=` comparison, or a call in
`EQUALITY_CHECKS`, or a `self.assert...` method of a test case), or is such an operand
itself; each draw may be compared with the other or with a reference. A value that is also
returned, stored, or used in any other way is data, and the reuse stays.
"""

from __future__ import annotations

import ast

from jaxlint.analysis import syntax
from jaxlint.analysis.deadness import loads_of_value
from jaxlint.analysis.imports import ModuleIndex

__all__ = ["EQUALITY_CHECKS", "compared_only"]

# functions whose arguments are compared for (approximate) equality and not otherwise used
EQUALITY_CHECKS = frozenset(
    {
        "numpy.testing.assert_array_equal",
        "numpy.testing.assert_array_almost_equal",
        "numpy.testing.assert_allclose",
        "numpy.testing.assert_equal",
        "numpy.testing.assert_almost_equal",
        "numpy.allclose",
        "numpy.array_equal",
        "numpy.isclose",
        "jax.numpy.allclose",
        "jax.numpy.array_equal",
        "jax.numpy.isclose",
        "chex.assert_trees_all_close",
        "chex.assert_trees_all_equal",
        "chex.assert_trees_all_equal_comparator",
    }
)

# test-case methods (`unittest`, absltest, JAX's own test utilities) that compare arguments
_ASSERT_METHODS = frozenset(
    {
        "assertEqual",
        "assertNotEqual",
        "assertAllClose",
        "assertArraysEqual",
        "assertArraysAllClose",
        "assertAlmostEqual",
        "assertSequenceEqual",
    }
)

# prefixes of the functions a value passes through without being used for anything else
_PASS_THROUGH = ("jax.numpy.", "jax.lax.", "jax.nn.")
_HOST_COPIES = frozenset({"numpy.asarray", "numpy.array", "jax.device_get"})


def compared_only(first: ast.Call, second: ast.Call, index: ModuleIndex) -> bool:
    """The values of the draws `first` and `second` are only compared for equality: with
    each other, or each with a reference (`assert_array_equal(fun(key, sz), fun_alt(sz)[0])`
    then `assert_array_equal(fun(key, sz, dtype), ...)`: a reproducibility test of one key
    across spellings; v29 scico test_random.py:48-61, new-user review 4). Numbers that are
    only compared are never used as data, so their correlation corrupts nothing (see the
    module docstring)."""
    return bool(_checks_of(first, index)) and bool(_checks_of(second, index))


def _checks_of(draw: ast.Call, index: ModuleIndex) -> list[ast.AST] | None:
    """The equality checks reading `draw`'s value, when every read of it is one; else None.
    The draw may be an operand itself (`assert_array_equal(normal(k, s), normal(k, s))`)."""
    carried = _carried(draw, index)
    direct = _check_of_operand(carried, index)
    if direct is not None:
        return [direct]
    loads = loads_of_value(carried, index)
    if not loads:
        return None
    checks: list[ast.AST] = []
    for load in loads:
        check = _check_around(load, index)
        if check is None:
            return None
        checks.append(check)
    return checks


def _carried(node: ast.expr, index: ModuleIndex) -> ast.expr:
    """The outermost expression that carries `node`'s value unchanged in meaning: arithmetic,
    pure array functions and host copies of it."""
    while True:
        up = syntax.parent(node)
        if isinstance(up, (ast.BinOp, ast.UnaryOp)):
            node = up
            continue
        if not (isinstance(up, ast.Call) and any(a is node for a in up.args)):
            return node
        q = index.qualname(up.func) or ""
        if q in EQUALITY_CHECKS or not (q.startswith(_PASS_THROUGH) or q in _HOST_COPIES):
            return node  # `jnp.allclose(a, b)` compares: it is the check, not a carrier
        node = up


def _check_around(load: ast.Name, index: ModuleIndex) -> ast.AST | None:
    """The equality check `load` is an operand of (through host copies), or None."""
    return _check_of_operand(_carried(load, index), index)


def _check_of_operand(node: ast.expr, index: ModuleIndex) -> ast.AST | None:
    """The equality check `node` is a direct operand of, or None."""
    up = syntax.parent(node)
    if isinstance(up, ast.Compare) and all(isinstance(op, (ast.Eq, ast.NotEq)) for op in up.ops):
        return up
    if not isinstance(up, ast.Call) or not any(a is node for a in up.args):
        return None
    if index.qualname(up.func) in EQUALITY_CHECKS:
        return up
    func = up.func
    if (
        isinstance(func, ast.Attribute)
        and func.attr in _ASSERT_METHODS
        and isinstance(func.value, ast.Name)
        and func.value.id == "self"
    ):
        return up
    return None
