"""Which import a name means when a `try:` imports it and its handlers bind it again.

`try: from .utils import f` / `except ImportError: from utils import f` is how a module that
runs both as part of a package and as a script imports its helpers; both bind the same
function. `ModuleIndex.binding` asks `import_fallback` when a name has several bindings whose
imports do not agree by name (a relative import has no qualified name here). Apart from
imports.py, which it serves, so that each file stays readable.
"""

from __future__ import annotations

import ast
from typing import Protocol, TypeVar

from jaxlint.analysis.syntax import contains, hasattr_parts, parent


class _Binding(Protocol):
    """What this reads of `imports.Binding` (not imported: imports.py imports this module)."""

    kind: str
    node: ast.AST | None
    value: ast.expr | None


B = TypeVar("B", bound=_Binding)

__all__ = ["import_fallback"]


def import_fallback(found: list[B], name: str) -> B | None:
    """The import of a `try:` whose handlers bind `name` to the same project function spelled
    another way: `try: from .utils import f` / `except ImportError: from utils import f` (a
    module that runs as a package and as a script; one of the two is relative, so both mean
    the file `utils.py` beside it), or `f = getattr(mod, "f")` of a module loaded from that
    file. The try's import is what runs whenever it works (v41 valkyrie
    `bigbird_attention.py:22-56`: `pad_to_block_size`'s static `x.shape[axis]` half taken as
    traced, JAX110 + JAX120). A fallback to another module (`from numpy import sum`, a
    different implementation) leaves the name unknown."""
    first = found[0]
    stmt = first.node
    if first.kind != "import" or type(stmt) is not ast.ImportFrom:
        return None
    attr = _from_name(stmt, name)
    try_stmt = parent(stmt)
    if attr is None or type(try_stmt) not in _TRY or stmt not in try_stmt.body:  # type: ignore[union-attr]
        return None
    handlers = try_stmt.handlers  # type: ignore[union-attr]
    for b in found[1:]:
        if b.node is None or not any(contains(h, b.node) for h in handlers):
            return None
        other = b.node
        if b.kind == "import" and type(other) is ast.ImportFrom:
            if _from_name(other, name) != attr or not _same_file(stmt, other):
                return None
        elif not (b.kind == "assign" and _getattr_of(b.value, attr)):
            return None
    return first


_TRY = (ast.Try, getattr(ast, "TryStar", ast.Try))


def _from_name(stmt: ast.ImportFrom, local: str) -> str | None:
    """The name `from m import name as local` imports."""
    for alias in stmt.names:
        if (alias.asname or alias.name) == local:
            return alias.name
    return None


def _same_file(a: ast.ImportFrom, b: ast.ImportFrom) -> bool:
    """`from .utils import` and `from utils import` (one relative): the module beside."""
    if (a.level > 0) == (b.level > 0) or not a.module or not b.module:
        return False
    return a.module.rsplit(".", 1)[-1] == b.module.rsplit(".", 1)[-1]


def _getattr_of(value: ast.expr | None, attr: str) -> bool:
    """`getattr(mod, "attr")`."""
    if not (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "getattr"
    ):
        return False
    parts = hasattr_parts(value)  # the same `f(obj, "name")` shape
    return parts is not None and parts[1] == attr
