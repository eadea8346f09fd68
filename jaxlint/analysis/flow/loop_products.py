"""Loop steps whose key products nothing in the loop reads.

A key consumed in every step of a loop without being rebound gives every step the same numbers
(JAX201's loop repeat). That matters only when two steps' numbers are both used: read within
the loop (a draw that feeds the step's work), or kept across steps. A step that recomputes
`keys = jax.random.split(key)[1]` and never reads `keys` inside the loop leaves only the last
step's value, read once after the loop: the same value recomputed, never used twice (v26 rows,
tuning material: probcomp/bayes3d's dino notebooks, three copies of one cell, JAX201 x3). A
module of its own because it is a pure function of the syntax and the module index.
"""

from __future__ import annotations

import ast

from jaxlint.analysis import syntax
from jaxlint.analysis.imports import ModuleIndex

_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def product_unread_in_loop(index: ModuleIndex, call: ast.Call, loop: ast.AST) -> bool:
    """`call`'s value (or an element of it: `split(key)[1]`) is bound to plain names that no
    code the loop may run reads: not the loop (its body, test or `else`, nested definitions
    included), nor a function that could read them from outside (a module-level name read in
    any function; a local read in a nested function). An augmented assignment reads its
    target. Anything else (the value passed on, stored, collected by a comprehension) keeps
    the repeat."""
    if isinstance(loop, _COMPREHENSIONS):
        return False
    node: ast.AST = call
    up = syntax.parent(node)
    while isinstance(up, ast.Subscript) and up.value is node:
        node, up = up, syntax.parent(up)
    if not (isinstance(up, ast.Assign) and up.value is node):
        return False
    names: set[str] = set()
    for target in up.targets:
        elts = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
        for elt in elts:
            if not isinstance(elt, ast.Name):
                return False  # stored into an object or a container
            names.add(elt.id)
    for sub in syntax.walk(loop):
        if isinstance(sub, ast.Name) and sub.id in names and isinstance(sub.ctx, ast.Load):
            return False
        if (
            isinstance(sub, ast.AugAssign)
            and isinstance(sub.target, ast.Name)
            and sub.target.id in names
        ):
            return False
    owner = index.enclosing_function(call)
    scope = index.scopes.get(owner) if owner is not None else None
    for name in names:
        # a local of `owner` is read from outside only by a function nested in it (the load
        # resolves to `owner`'s binding); a same-named local of another function is another
        # variable (the answer must not depend on unrelated functions: the editor lints a
        # function alone, tests/test_incremental.py)
        local = None
        if scope is not None and name not in scope.globals:
            local = scope.bindings.get(name)
        for use in index.names.get(name, ()):
            if not isinstance(use.ctx, ast.Load):
                continue
            reader = index.enclosing_function(use)
            if reader is None or reader is owner:
                continue
            if local is not None and index.lookup(name, index.scope_of(use)) is not local:
                continue
            return False  # a function that may run inside the loop reads it
    return True
