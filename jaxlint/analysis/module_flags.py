"""Module flags: branches a module's own constant switch turns off.

    DEBUG = False
    ...
    if DEBUG:
        atom_energies[start:end] += energy      # never runs
    else:
        atom_energies = atom_energies.at[start:end].add(energy)

A name the module binds exactly once, at its top level, to a literal (`False`, `True`, `None`,
`0`, `1`, a string), and that no function rebinds (`global DEBUG`), is a switch the author
flips by editing the source: as the file stands, an `if` on it (or on `not` it, or on an `and`
with it false, or an `or` with it true) has an arm that never runs. A behavioural finding
there (a runtime error, a key reuse, a trace-time effect) describes code that does not run
(v24 rows, tuning material: attract-jax test-1B7F-nb.py:201 and three copies, `x[i] += v`
under `if DEBUG:`, where the same switch also rebinds `jnp = np`, JAX501 x4).

Another module could still set `module.DEBUG = True` at run time, which one module's facts
cannot see; no repository of the measurement sets did.
"""

from __future__ import annotations

import ast

from jaxlint.analysis import syntax
from jaxlint.analysis.imports import ModuleIndex

__all__ = ["ModuleFlags"]

_MISSING = object()


class ModuleFlags:
    """Answers "does an `if` on a constant module switch (or a loop over an empty literal
    range) keep `node` from running?"."""

    def __init__(self, index: ModuleIndex) -> None:
        self.index = index
        self._flags: dict[str, object] | None = None

    @property
    def flags(self) -> dict[str, object]:
        """Module switches and their literal values (see the module docstring)."""
        if self._flags is None:
            self._flags = self._collect()
        return self._flags

    def _collect(self) -> dict[str, object]:
        module = self.index.scopes[self.index.tree]
        out: dict[str, object] = {}
        for stmt in getattr(self.index.tree, "body", ()):
            if not (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and isinstance(stmt.value, ast.Constant)
                and isinstance(stmt.value.value, (bool, int, str, type(None)))
            ):
                continue
            name = stmt.targets[0].id
            if len(module.bindings.get(name, ())) == 1:
                out[name] = stmt.value.value
        for name in list(out):
            for use in self.index.names.get(name, ()):
                stmt = syntax.parent(use)
                if not isinstance(use.ctx, ast.Load) and not (
                    isinstance(stmt, ast.Assign) and syntax.parent(stmt) is self.index.tree
                ):
                    del out[name]  # rebound or deleted elsewhere (`global DEBUG` included)
                    break
        return out

    def never_runs(self, node: ast.AST) -> bool:
        """`node` sits in an arm of an `if` (or conditional expression) whose test a module
        switch decides against it, or in the body of a loop over an empty literal range."""
        flags = self.flags
        child: ast.AST = node
        for anc in syntax.ancestors(node):
            if isinstance(anc, (ast.For, ast.AsyncFor)) and any(s is child for s in anc.body):
                if _empty_range(anc.iter):
                    return True  # `for epoch in range(0):` never enters its body
            if not flags:
                child = anc
                continue
            if isinstance(anc, (ast.If, ast.IfExp)) and child is not anc.test:
                in_body = child is anc.body or (
                    isinstance(anc.body, list) and any(s is child for s in anc.body)
                )
                truth = self._truth(anc.test, flags)
                if truth is not None and truth is not in_body:
                    return True
            child = anc
        return False

    def _truth(self, test: ast.AST, flags: dict[str, object]) -> bool | None:
        """The test's truth value when the switches decide it, else None."""
        if isinstance(test, ast.Name):
            value = flags.get(test.id, _MISSING)
            if value is _MISSING:
                return None
            module = self.index.scopes[self.index.tree]
            found = self.index.lookup(test.id, self.index.scope_of(test))
            if found is None or found is not module.bindings.get(test.id):
                return None  # a parameter or local of the same name shadows the switch
            return bool(value)
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            inner = self._truth(test.operand, flags)
            return None if inner is None else not inner
        if isinstance(test, ast.BoolOp):
            parts = [self._truth(v, flags) for v in test.values]
            if isinstance(test.op, ast.And) and any(p is False for p in parts):
                return False
            if isinstance(test.op, ast.Or) and any(p is True for p in parts):
                return True
        return None


def _empty_range(it: ast.AST) -> bool:
    """`range(0)`, `range(5, 5)`, `range(3, 1)`: a range of literal ints with no element
    (v25 row, tuning material: energy-jax notebook 04, `for epoch in range(0)` around a timed
    loop, JAX601)."""
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"):
        return False
    if it.keywords or not 1 <= len(it.args) <= 2:
        return False
    values = [a.value for a in it.args if isinstance(a, ast.Constant) and type(a.value) is int]
    if len(values) != len(it.args):
        return False
    start, stop = (0, values[0]) if len(values) == 1 else (values[0], values[1])
    return stop <= start
