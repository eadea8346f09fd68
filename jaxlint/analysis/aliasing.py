"""Whether the array a name holds may be reachable through another reference: what a fix that
rebinds the name (`x[i] = v` -> `x = x.at[i].set(v)`) cannot carry over.

The NumPy code a JAX user ports means `x[i] = v` to be seen through every reference to `x`'s
array: another name bound to it (`b = a; b[3] = -1.0`, meant to change `a`), the caller's array
for a parameter, a container or attribute that holds it, a view (`row = grid[0]`). Rebinding
the name changes only the name, so the rewrite keeps the author's meaning only for an array
the name alone holds: a fresh one (made by a call or an operation, not read from another name,
attribute or subscript), bound in its own function, never handed on (assigned to another
target, put in a display, stored in an attribute or a subscript, appended, yielded). A new
user's report (stop 51): `b = a; b[3] = -1.0` became `b = b.at[3].set(-1.0)` as a safe fix.

The name must be bound in the scope that updates it (a module's top level counts: code that
imports the module binds the name after its statements ran); a rebinding of a global or an
enclosing function's name in a function would make it local there. A parameter is the
caller's array; it counts as alone only where the function reads the name
again after the update, which a rebinding keeps (the traced `x` of a jitted `def f(x): x[0] =
1.0; return x`): with no later read, the rewrite is a dead store, and the caller's array the
author meant to change is left as it was.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.flow.cfg import DefKind
from jaxlint.analysis.flow.graph import flow_graphs
from jaxlint.analysis.imports import ModuleIndex, Scope
from jaxlint.analysis.syntax import parent

__all__ = ["lost_parameter_update", "may_be_shared"]

# calls that store their argument in the object they are called on
_STORING_METHODS = frozenset({"append", "extend", "insert", "add", "setdefault", "update", "put"})


def may_be_shared(index: ModuleIndex, name: ast.Name, stmt: ast.stmt) -> bool:
    """`name` (the array updated in place by `stmt`) may hold an array that another
    reference also reaches, so rebinding the name does not do what the update meant."""
    scope = index.scope_of(name)
    found = scope.bindings.get(name.id)
    if not found or scope.kind == "class" or name.id in scope.globals:
        # bound in an enclosing scope (a rebinding here would make it local: an
        # UnboundLocalError), a global or nonlocal, a class attribute, or bound nowhere
        return True
    defs = flow_graphs(index).reaching(name)  # the bindings that reach the update
    bindings = (
        [d.binding if d.kind in (DefKind.PARAM, DefKind.BIND) else None for d in defs]
        if defs
        else found
    )
    params = False
    for b in bindings:
        if b is not None and b.kind == "param":
            params = True
        elif b is None or b.kind != "assign" or b.value is None or _reads_a_reference(b.value):
            return True  # bound by unpacking, a loop, `with`, `+=`...: where from, unknown
    if _handed_on(index, name.id, scope, stmt):
        return True
    return params and not _read_after(index, name.id, scope, stmt)


def lost_parameter_update(index: ModuleIndex, name: ast.Name, stmt: ast.stmt) -> bool:
    """`name` is a parameter of the updating function (the binding that reaches the update)
    that nothing reads after it: the update can only have been meant for the caller's array,
    so a rebinding (`x = x.at[i].set(v)`) would be a dead store that silently drops it; no
    fix is offered (a new user's report, stop 51: `def zero_first(x): x[0] = 0.0`)."""
    scope = index.scope_of(name)
    if scope.kind != "function":
        return False
    defs = flow_graphs(index).reaching(name)
    if not defs or any(d.kind is not DefKind.PARAM for d in defs):
        return False
    return not _read_after(index, name.id, scope, stmt)


def _reads_a_reference(value: ast.expr) -> bool:
    """`value` is an existing object (a name, attribute, subscript: a view in NumPy), not a
    new array made by a call or an operation."""
    while isinstance(value, ast.NamedExpr):
        value = value.value
    return isinstance(value, (ast.Name, ast.Attribute, ast.Subscript, ast.Starred))


def _handed_on(index: ModuleIndex, ident: str, scope: Scope, stmt: ast.stmt) -> bool:
    """A load of `ident` in `scope` that gives its object to another holder and may run
    before `stmt` (the flow graph: before it, or later in a loop around it); one that only
    runs after it hands on the updated array."""
    flow = flow_graphs(index)
    for ref in index.names_in(ident, scope):
        if not isinstance(ref.ctx, ast.Load):
            continue
        up = parent(ref)
        if not (
            (isinstance(up, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and up.value is ref)
            or isinstance(up, (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.Starred))
            or isinstance(up, (ast.Yield, ast.YieldFrom))  # `b = a`, `[a, b]`, `yield a`
            or (
                isinstance(up, ast.Call)
                and ref in up.args
                and isinstance(up.func, ast.Attribute)
                and up.func.attr in _STORING_METHODS  # `buffers.append(a)`
            )
        ):
            continue
        where = flow.statement_in(ref, scope.node)
        if not isinstance(where, ast.stmt) or where is stmt or flow.may_run_after(where, stmt):
            return True
    return False


def _read_after(index: ModuleIndex, ident: str, scope: Scope, stmt: ast.stmt) -> bool:
    """`ident` is read in `scope` by a statement that may run after `stmt` (the flow graph:
    later, or in the next iteration of a loop around it)."""
    flow = flow_graphs(index)
    for ref in index.names_in(ident, scope):
        if not isinstance(ref.ctx, ast.Load):
            continue
        where = flow.statement_in(ref, scope.node)
        if isinstance(where, ast.stmt) and where is not stmt and flow.may_run_after(stmt, where):
            return True  # (unknown counts as no read: the fix then stays unsafe)
    return False
