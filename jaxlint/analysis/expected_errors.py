"""Code that expects an exception: a statement in `with pytest.raises(TypeError):` (and
`self.assertRaises`, `np.testing.assert_raises`, `pytest.raises` as a context manager), or in
the body of a `try` whose handlers catch that exception (or a base of it, or everything).

A sharp bit that raises there is what the author asked for: a test that JAX arrays are
immutable (`with pytest.raises(TypeError): x[0] = 1.0`), or code that tries the in-place
update and falls back (`try: x[i] = v / except TypeError: x = x.at[i].set(v)`). Reporting it
is noise, and "fixing" it turns the test into a failing one (a new user's report, stop 52:
JAX501's safe rewrite made `pytest` say DID NOT RAISE).
"""

from __future__ import annotations

import ast

from jaxlint.analysis import syntax
from jaxlint.analysis.imports import ModuleIndex

# the bases of an exception, as the names a handler or `raises(...)` spells them
_BASES: dict[str, frozenset[str]] = {
    "TypeError": frozenset({"TypeError", "Exception", "BaseException"}),
    "ValueError": frozenset({"ValueError", "Exception", "BaseException"}),
    "IndexError": frozenset({"IndexError", "LookupError", "Exception", "BaseException"}),
    "RuntimeError": frozenset({"RuntimeError", "Exception", "BaseException"}),
}
# context managers of test frameworks that expect their block to raise: qualified names, or
# the method name of an unresolved receiver (`self.assertRaises`)
RAISES_CONTEXTS = frozenset(
    {
        "pytest.raises",
        "raises",
        "numpy.testing.assert_raises",
        "assertRaises",
        "assertRaisesRegex",
    }
)


def expects_error(index: ModuleIndex, node: ast.AST, error: str) -> bool:
    """`node` runs where the code expects `error` (a builtin exception named in `_BASES`): in a
    `with` block of a raises-context that names it (or a base), or in a `try` body whose
    handler catches it (a bare `except:` too), in the same function."""
    names = _BASES.get(error, frozenset({error, "Exception", "BaseException"}))
    child: ast.AST = node
    parent = syntax.parent(node)
    while parent is not None and not isinstance(parent, syntax.SCOPE_BOUNDARIES):
        if isinstance(parent, ast.Try) and child in parent.body:
            if any(_catches(h.type, names) for h in parent.handlers):
                return True
        elif isinstance(parent, (ast.With, ast.AsyncWith)) and child in parent.body:
            if any(_raises_context(index, item.context_expr, names) for item in parent.items):
                return True
        child, parent = parent, syntax.parent(parent)
    return False


def _catches(handler_type: ast.expr | None, names: frozenset[str]) -> bool:
    if handler_type is None:
        return True  # `except:` catches everything
    spelled = handler_type.elts if isinstance(handler_type, ast.Tuple) else [handler_type]
    return any(_name(t) in names for t in spelled)


def raises_context(index: ModuleIndex, expr: ast.expr) -> bool:
    """`pytest.raises(...)`, `self.assertRaises(...)`, `np.testing.assert_raises(...)`: a
    context manager that expects its block to raise (whatever the exception)."""
    if not isinstance(expr, ast.Call):
        return False
    q = index.qualname(expr.func) or ""
    name = expr.func.attr if isinstance(expr.func, ast.Attribute) else q
    return q in RAISES_CONTEXTS or name in RAISES_CONTEXTS


def _raises_context(index: ModuleIndex, expr: ast.expr, names: frozenset[str]) -> bool:
    """`pytest.raises(TypeError)`, `self.assertRaises((TypeError, ValueError))`: a raises
    context that expects one of `names` (its first argument)."""
    return (
        raises_context(index, expr)
        and bool(expr.args)  # type: ignore[attr-defined]
        and _catches(expr.args[0], names)  # type: ignore[attr-defined]
    )


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr  # `builtins.TypeError`
    return None
