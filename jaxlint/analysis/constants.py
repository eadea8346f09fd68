"""Module constants: the Python values a name or `module.NAME` holds for certain.

`ITERATIONS = 24` at module level, assigned once, is a Python int wherever it is read; so is
`util.U16_CHUNK_NUM` after `import util` when `util.py` assigns it once. A rule that asks
"what is this constant" (a loop bound, a default) asks `ModuleConstants.int_value`, which
reads this module's own top-level assignments and the constants of the project modules it
imports (the project index's `ImportedConstants` seeds entry, built from each module's
`ModuleSummary.constants`). Unknown stays None: the rule then keeps its own default.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

from jaxlint.analysis.imports import ModuleIndex, dotted
from jaxlint.analysis.syntax import child_nodes, nested_statements

# the seeds entry (analysis.project_data.ImportedConstants): `util.N` / `N` -> the literal value
# that another project module assigns once at its top level
IMPORTED_CONSTANTS = "<imported constants>"

Literal = int | float | str | bool | tuple[int, ...]
MAX_DEPTH = 4


def literal_of(node: ast.AST | None) -> Literal | None:
    """The value of a literal that a summary can carry: int, float, str, bool (also `-3`),
    or a tuple of ints."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str)):
        return node.value
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant)
        and isinstance(node.operand.value, (int, float))
        and not isinstance(node.operand.value, bool)
    ):
        return -node.operand.value
    if isinstance(node, ast.Tuple) and node.elts:
        items = [literal_of(e) for e in node.elts]
        if all(type(i) is int for i in items):
            return tuple(items)  # type: ignore[arg-type]
    return None


_DEFS = frozenset((ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
_LAMBDA, _NAME, _LOAD, _ALIAS = ast.Lambda, ast.Name, ast.Load, ast.alias
_GLOBAL = ast.Global  # exact: the parser makes no subclasses


def _bound_names(node: ast.AST, out: dict[str, int], globals_: set[str]) -> None:
    """Count the module-level bindings under `node` (`x += 1` counts: its target is a
    store; not inside functions or classes, whose
    `global X` statements are collected instead: they rebind the module's `X`)."""
    for child in child_nodes(node):
        cls = type(child)  # exact classes: the parser makes no subclasses
        if cls in _DEFS:
            out[child.name] = out.get(child.name, 0) + 1  # type: ignore[attr-defined]
            # `global` is a statement: the statements under the def, not every node
            globals_.update(
                n for g in nested_statements(child) if type(g) is _GLOBAL for n in g.names
            )
            continue
        if cls is _LAMBDA:
            continue
        if cls is _NAME:
            if type(child.ctx) is not _LOAD:  # type: ignore[attr-defined]
                out[child.id] = out.get(child.id, 0) + 1  # type: ignore[attr-defined]
        elif cls is _ALIAS:
            name = (child.asname or child.name).split(".", 1)[0]  # type: ignore[attr-defined]
            out[name] = out.get(name, 0) + 1
        _bound_names(child, out, globals_)


def module_constants(tree: ast.Module) -> dict[str, Literal]:
    """`ModuleSummary.constants`: top-level names bound exactly once in the module (no
    `global` rebinding, no augmented assignment), by `NAME = <literal>` or `NAME: T = <literal>`
    at the top level. From the syntax alone: a summary of a module that only imports is made
    without indexing it."""
    candidates: list[tuple[str, Literal]] = []
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            target, value = stmt.target, stmt.value
        else:
            continue
        for name, part in _unpacked(target, value):
            if name.startswith("__"):
                continue
            found = literal_of(part)
            if found is not None:
                candidates.append((name, found))
    if not candidates:
        return {}  # no literal assignment at the top level: no count of bindings needed
    counts: dict[str, int] = {}
    globals_: set[str] = set()
    _bound_names(tree, counts, globals_)
    out: dict[str, Literal] = {}
    for name, found in candidates:
        if counts.get(name) != 1 or name in globals_:
            continue
        out[name] = found
    return out


def _unpacked(target: ast.AST, value: ast.expr) -> list[tuple[str, ast.expr]]:
    """The names an assignment binds with the part of the value each gets: `N = 3`, and
    `num_rows, num_cols = 200, 4` element by element (a tuple display of the same length,
    nothing starred: jax#9463's module constants)."""
    if isinstance(target, ast.Name):
        return [(target.id, value)]
    if (
        isinstance(target, (ast.Tuple, ast.List))
        and isinstance(value, (ast.Tuple, ast.List))
        and len(target.elts) == len(value.elts)
        and not any(isinstance(e, ast.Starred) for e in (*target.elts, *value.elts))
    ):
        return [(t.id, v) for t, v in zip(target.elts, value.elts) if isinstance(t, ast.Name)]
    return []


def _bound_value(stmt: ast.AST | None, name: str) -> ast.expr | None:
    """The part of a one-target assignment's value that `name` gets (`_unpacked`)."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        for bound, part in _unpacked(stmt.targets[0], stmt.value):
            if bound == name:
                return part
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        return stmt.value
    return None


class ModuleConstants:
    """The static values of one module's names: its own constants and the imported ones."""

    def __init__(self, index: ModuleIndex, imported: Mapping[str, Literal]) -> None:
        self.index = index
        self.imported = imported

    def imported_reference(self, node: ast.AST) -> bool:
        """`util.N` or `N` whose head is a module-level import, bound once (not shadowed
        locally): another module's name, which the project index may give a value
        (`IMPORTED_CONSTANTS`; until it does, `int_value` does not know it)."""
        name = dotted(node)
        if name is None:
            return False
        head = name.split(".", 1)[0]
        module = self.index.scopes[self.index.tree]
        found = self.index.lookup(head, self.index.scope_of(node))
        bindings = module.bindings.get(head)
        return (
            found is not None
            and found is bindings
            and len(bindings) == 1
            and bindings[0].kind == "import"
        )

    def _imported(self, node: ast.AST) -> Literal | None:
        """`util.N` or `N` bound by an import, where the imported module assigns `N` once."""
        if not self.imported:
            return None
        name = dotted(node)
        if name is None or name not in self.imported or not self.imported_reference(node):
            return None
        return self.imported[name]

    def int_value(self, node: ast.AST | None, depth: int = 0) -> int | None:
        """An int known statically: a literal, simple arithmetic, a module-level constant of
        this module or of a project module it imports."""
        if node is None or depth > MAX_DEPTH:
            return None
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, int)
            and not isinstance(node.value, bool)
        ):
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            v = self.int_value(node.operand, depth + 1)
            return -v if v is not None else None
        if isinstance(node, ast.BinOp):
            return self._arithmetic(node, depth)
        if isinstance(node, (ast.Name, ast.Attribute)):
            value = self._imported(node)
            if value is not None:
                return value if type(value) is int else None
        if isinstance(node, ast.Name):
            module = self.index.scopes[self.index.tree]
            found = self.index.lookup(node.id, self.index.scope_of(node))
            bindings = module.bindings.get(node.id)
            if (
                found is not None
                and found is bindings
                and len(bindings) == 1
                and bindings[0].kind in ("assign", "local")
            ):
                return self.int_value(_bound_value(bindings[0].node, node.id), depth + 1)
        return None

    def reaching_int(self, node: ast.AST | None) -> int | None:
        """`int_value`, or for a name the int of the one assignment that certainly reaches
        it (the flow graph's use-def map): `seeds = 1000` then `for seed in range(seeds):`
        in a notebook cell, where `seeds` is bound again in another cell, so it is no module
        constant (v33 ktolnos enemy_walk_vqvae.ipynb cells 15 and 18, JAX201, tuning
        material). Asked only where a proven count removes paths (`KeyFlow`'s loops that
        take a step), never to add a finding."""
        value = self.int_value(node)
        if value is not None or not isinstance(node, ast.Name):
            return value
        from jaxlint.analysis.flow.graph import flow_graphs  # the graph needs these facts

        b = flow_graphs(self.index).reaching_binding(node)
        if b is None or b.kind != "assign":
            return None
        return self.int_value(_bound_value(b.node, node.id))

    def _arithmetic(self, node: ast.BinOp, depth: int) -> int | None:
        a = self.int_value(node.left, depth + 1)
        b = self.int_value(node.right, depth + 1)
        if a is None or b is None:
            return None
        try:
            if isinstance(node.op, ast.Add):
                return a + b
            if isinstance(node.op, ast.Sub):
                return a - b
            if isinstance(node.op, ast.Mult):
                return a * b
            if isinstance(node.op, ast.FloorDiv) and b:
                return a // b
            if isinstance(node.op, ast.Pow) and 0 <= b <= 128:
                return a**b
            if isinstance(node.op, ast.LShift) and 0 <= b <= 128:
                return a << b
        except (OverflowError, ValueError):
            return None
        return None


_NON_FINITE_NAMES = frozenset(
    f"{m}.{n}"
    for m in ("jax.numpy", "numpy", "math")
    for n in ("inf", "nan", "NINF", "PINF", "NaN", "Inf", "infty")
)


def non_finite_constant(index: ModuleIndex, node: ast.AST) -> bool:
    """`node` is an infinity or a NaN written as a constant: `-jnp.inf`, `np.nan`,
    `math.inf`, `float("-inf")`. A `jnp.where` that picks one where its guard fails gives
    a non-finite value there, so its gradient at those points is moot (JAX704 reads this:
    a log-density's `jnp.where(x > 0, jnp.log(x), -jnp.inf)`, v34 gp_pipeline)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    if isinstance(node, ast.Constant) and isinstance(node.value, float):
        return node.value != node.value or node.value in (float("inf"), float("-inf"))
    if isinstance(node, (ast.Name, ast.Attribute)):
        return index.qualname(node) in _NON_FINITE_NAMES
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "float"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        return node.args[0].value.strip().lower().lstrip("+-") in ("inf", "infinity", "nan")
    return False
