"""Tuple elements a function returns that are Python values, whatever it is given.

`operands, shape = canonicalize_operand(x)` where the helper returns `(leaves, x.shape)`:
the second element is a tuple of Python ints even when the first holds tracers. Inside one
module the taint follows the helper's own returns (`return_elts`); across modules the caller
only has the callee's project summary, which names such elements `f#1` in `static_returns`
(the importer's `StaticHelpers` seeds entry then holds `local#1`). v15 rows, tuning material:
oliverdutton/tallax `_src/sort.py:527-909`, a shape tuple from `utils.canonicalize_operand`
taken as traced (JAX110 x6, JAX120 x2): issue 23's first false-positive class ("ints from
`x.shape` returned next to arrays by a helper and compared by the caller"), lifted across
modules.

Proved, never assumed: every `return` of the (undecorated, top-level) function is a tuple
display of the same length, and the element is metadata in each of them: `x.shape`, `.ndim`,
`.dtype`, `.size`, `len(...)`, `int(...)` and the like, literals, arithmetic, subscripts, displays and comprehensions
of those, or a local name every binding of which is one.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.flow.levels import Level
from jaxlint.analysis.imports import ModuleIndex, dotted
from jaxlint.analysis.syntax import own_returns

__all__ = ["ELEMENT_MARK", "imported_elements", "static_element_names"]

ELEMENT_MARK = "#"  # `f#1`: element 1 of what `f` returns
_METADATA = frozenset({"shape", "ndim", "dtype", "size"})
_MAX_DEPTH = 4
# builtins whose result is a Python value whatever they are given: on a tracer they raise
# instead (`round`, `abs`, `min` are left out: on a tracer they return one). `n =
# int(A.shape[-1])` returned beside the padded array (v38 candidate lorrax
# `runtime/padding.py:193`, read by `isdf/core.py:3694`: JAX110 and JAX120, tuning material)
_HOST_BUILTINS = frozenset({"len", "int", "float", "bool", "str", "complex"})


def static_element_names(index: ModuleIndex) -> list[str]:
    """`f#i` for each undecorated top-level function `f` of the module and each position `i`
    of the tuples it returns that holds a Python value in every return."""
    out: list[str] = []
    for stmt in index.tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and not stmt.decorator_list:
            out.extend(f"{stmt.name}{ELEMENT_MARK}{i}" for i in static_positions(index, stmt))
    return sorted(out)


def static_positions(index: ModuleIndex, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[int]:
    """The positions of `fn`'s returned tuples that are Python values in every return."""
    tuples = _returned_tuples(index, fn, 0)
    if not tuples:
        return []
    n = len(tuples[0].elts)
    if n < 2 or any(len(t.elts) != n for t in tuples):
        return []
    if any(isinstance(e, ast.Starred) for t in tuples for e in t.elts):
        return []
    return [i for i in range(n) if all(_static(index, t.elts[i], 0) for t in tuples)]


def _returned_tuples(
    index: ModuleIndex, fn: ast.FunctionDef | ast.AsyncFunctionDef, depth: int
) -> list[ast.Tuple] | None:
    """The tuple displays `fn` returns, each `return` one; a `return g(...)` of another
    undecorated top-level def of the module stands for what `g` returns (lorrax
    `runtime/padding.py:202`: `pad_last_axis_to` returns `pad_axis_to(A, divisor, axis=-1)`,
    whose element 1 is `int(A.shape[ax])`; tuning pool `isdf/core.py:3694`, JAX110 and
    JAX120, read false). None when some return is anything else."""
    out: list[ast.Tuple] = []
    values = [r.value for r in own_returns(fn)]
    if not values:
        return None
    for v in values:
        if isinstance(v, ast.Tuple):
            out.append(v)
            continue
        callee = _module_def(index, v) if depth < _MAX_DEPTH else None
        inner = _returned_tuples(index, callee, depth + 1) if callee not in (None, fn) else None
        if inner is None:
            return None
        out.extend(inner)
    return out


def _module_def(index: ModuleIndex, value: ast.AST | None) -> ast.FunctionDef | None:
    """The undecorated top-level def a `return g(...)` calls by its name."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)):
        return None
    fn = index.resolve_function(value.func)
    top = isinstance(fn, ast.FunctionDef) and any(fn is s for s in index.tree.body)
    return fn if top and not fn.decorator_list else None  # type: ignore[union-attr,return-value]


def _static(index: ModuleIndex, node: ast.AST, depth: int) -> bool:
    if depth > _MAX_DEPTH:
        return False
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Attribute):
        return node.attr in _METADATA
    if isinstance(node, ast.Subscript):
        return _static(index, node.value, depth + 1)
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(_static(index, e, depth + 1) for e in node.elts)
    if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
        return _static(index, node.elt, depth + 1)
    if isinstance(node, ast.BinOp):
        return _static(index, node.left, depth + 1) and _static(index, node.right, depth + 1)
    if isinstance(node, ast.UnaryOp):
        return _static(index, node.operand, depth + 1)
    if isinstance(node, ast.Call):
        return (
            isinstance(node.func, ast.Name)
            and node.func.id in _HOST_BUILTINS
            and not index.lookup(node.func.id, index.scope_of(node))
        )
    if isinstance(node, ast.Name):
        found = index.lookup(node.id, index.scope_of(node)) or []
        return bool(found) and all(
            b.kind == "assign" and b.value is not None and _static(index, b.value, depth + 1)
            for b in found
        )
    return False


def imported_elements(
    index: ModuleIndex, helpers: frozenset[str], call: ast.Call, n: int, level: Level
) -> tuple[Level, ...] | None:
    """Per-element levels of `call` (of another project module's function, unpacked into
    `n` names) when its summary names some of its returned elements static (`local#i` in the
    importer's `StaticHelpers`): those are Python values, the others what the call gives."""
    name = dotted(call.func)
    if name is None:
        return None
    static = {i for i in range(n) if f"{name}{ELEMENT_MARK}{i}" in helpers}
    if not static:
        return None
    return tuple(Level.NONE if i in static else level for i in range(n))
