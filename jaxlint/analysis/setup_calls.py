"""Set-up functions: module-level functions that only run from module-level code, before a point.

Why a module of its own: a function that rebinds globals (`global n_kernel; n_kernel = ...`) is a
hazard for a jitted reader of those globals only if it can run after the reader is traced. A
notebook's `load_pattern(pattern)` in cell 8, called once before the jitted reader is defined
in cell 9, sets the values the trace then bakes in; nothing changes them later. This module
answers "can this function only run before statement S?" from the module's own evidence, so
the rule asks one question instead of re-deriving call sites.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.syntax import ancestors, parent


def runs_only_before(index: ModuleIndex, fn: ast.AST, stmt: ast.stmt, script: bool) -> bool:
    """`fn` runs only from module-level calls that all finish before module statement `stmt`.

    Proven when `fn` is a plain module-level `def` (no decorator, which could register it, and
    not a method), its name is used only as the callee of calls in module-level code (never
    passed as a value, rebound, listed in `__all__` or called from a function), there is at
    least one such call, and each sits in a module statement that ends before `stmt` starts
    (a loop that holds both the call and `stmt` runs the call again after it). Another module
    could still import and call `fn` later, so a public `fn` counts only in a `script` (a
    module or notebook that runs traced code itself at module level: nobody imports it to
    call its set-up function); a private `_fn` counts anywhere."""
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn.decorator_list:
        return False
    if not isinstance(parent(fn), ast.Module):
        return False
    if not (script or fn.name.startswith("_")) or fn.name in _exported(index.tree):
        return False
    uses = index.names.get(fn.name, [])
    if not uses:
        return False
    start = getattr(stmt, "lineno", 0)
    for use in uses:
        call = parent(use)
        if not (
            isinstance(use.ctx, ast.Load)
            and isinstance(call, ast.Call)
            and call.func is use
            and index.enclosing_function(use) is None
            and index.resolve_function(use) is fn
        ):
            return False
        top = _module_statement(call)
        if top is None or top is stmt or any(a is stmt for a in ancestors(call)):
            return False
        if getattr(top, "end_lineno", top.lineno) >= start:
            return False
    return True


def _module_statement(node: ast.AST) -> ast.stmt | None:
    """The module-level statement that holds `node`."""
    cur: ast.AST | None = node
    while cur is not None:
        up = parent(cur)
        if isinstance(up, ast.Module):
            return cur if isinstance(cur, ast.stmt) else None
        cur = up
    return None


def _exported(tree: ast.AST) -> set[str]:
    """The names in a module-level `__all__` list or tuple display."""
    for s in getattr(tree, "body", ()):
        if (
            isinstance(s, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in s.targets)
            and isinstance(s.value, (ast.List, ast.Tuple))
        ):
            return {e.value for e in s.value.elts if isinstance(e, ast.Constant)}
    return set()
