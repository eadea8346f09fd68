"""Which children of a split a use takes: one split written twice is not a reuse.

Why a module of its own: the key flow (keys.py) sees every `split(k)` as a consumption of `k`,
so `split(k)[1]` and then `split(split(k)[0])[1]` (fedjax tests replaying a library's key
sequence) looks like `k` used twice. `split` is deterministic: writing it twice and taking a
DIFFERENT child from each copy is one split. Only the same child (or the whole result, or `k`
itself) taken twice is a reuse. The starred target of `key, *subkeys = split(key, 4)` is a
Python list of keys, not one key: indexing, slicing or concatenating it is fine.
"""

from __future__ import annotations

import ast

from jaxlint.analysis.flow.key_terms import key_argument, random_function
from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.syntax import parent


def starred_target(targets: list[ast.expr], name: str) -> bool:
    """`name` is the starred element of an unpacking target (`key, *subkeys = ...`): it is
    bound to a Python list of the remaining elements."""
    for target in targets:
        for node in ast.walk(target):
            if (
                isinstance(node, ast.Starred)
                and isinstance(node.value, ast.Name)
                and node.value.id == name
            ):
                return True
    return False


def starred_split(index: ModuleIndex, name: ast.AST) -> ast.Call | None:
    """The `split(...)` call whose starred target is the only binding of `name`
    (`key, *subkeys = split(key, 4)`): `name` is a Python list of the keys it made, so an
    element is one key while the list itself is no key at all (`[key] + subkeys` is a list)."""
    if not isinstance(name, ast.Name):
        return None
    found = index.lookup(name.id, index.scope_of(name))
    if not found or len(found) != 1:
        return None
    stmt = found[0].node
    if (
        found[0].kind == "local"
        and isinstance(stmt, ast.Assign)
        and isinstance(stmt.value, ast.Call)
        and random_function(index, stmt.value) == "split"
        and starred_target(stmt.targets, name.id)
    ):
        return stmt.value
    return None


class SplitChildren:
    """The children of `k` each `split(k, n)[i]` consumption has taken so far.

    A chain of such consumptions with pairwise different constant `i` (and equal `n`) is one
    split; `disjoint(first, second)` answers for the next one and remembers the children
    taken, so a third `split(k)[1]` after `[1]` and `[0]` is still a reuse."""

    def __init__(self, index: ModuleIndex) -> None:
        self.index = index
        self._taken: dict[int, frozenset[int]] = {}

    def child(self, call: ast.AST) -> int | None:
        """`i` when `call` is `split(k, n)` whose result is only read as `[i]` (a constant
        index); None otherwise (the whole result, a slice, an unpacking)."""
        if not isinstance(call, ast.Call) or random_function(self.index, call) != "split":
            return None
        up = parent(call)
        if not isinstance(up, ast.Subscript) or up.value is not call:
            return None
        if not isinstance(up.ctx, ast.Load):
            return None
        index = up.slice
        if isinstance(index, ast.Constant) and type(index.value) is int:
            return index.value
        return None

    def disjoint(self, first: ast.AST, second: ast.AST) -> bool:
        """`second` takes a child of the same split that no consumption in `first`'s chain took."""
        a, b = self.child(first), self.child(second)
        if a is None or b is None:
            return False
        if _count(first) != _count(second):  # type: ignore[arg-type]
            return False
        ka, kb = key_argument(first), key_argument(second)  # type: ignore[arg-type]
        if ka is None or kb is None or ast.dump(ka) != ast.dump(kb):
            return False
        taken = self._taken.get(id(first), frozenset({a}))
        if b in taken or (b < 0) != (a < 0):
            return False  # the same child again (a negative index may name the same child)
        self._taken[id(second)] = taken | {b}
        return True


def _count(call: ast.Call) -> str:
    """The number of keys `split` makes, as source (2 when omitted)."""
    num = call.args[1] if len(call.args) > 1 else None
    for kw in call.keywords:
        if kw.arg == "num":
            num = kw.value
    return "2" if num is None else ast.unparse(num)
