"""Scopes, bindings and qualified names, from the module's own imports.

One iterative walk builds the scope tree and parent links; resolution then follows a
name through its scope chain to an import (`jnp` -> `jax.numpy`) or a plain alias
assignment (`jit = jax.jit`). This is several times cheaper than libcst's
QualifiedNameProvider and covers what JAX code does: aliases, function-level imports,
shadowing by parameters. Star and relative imports resolve to nothing (unknown = silent).
"""

from __future__ import annotations

import ast
import builtins
import threading
from collections import deque
from dataclasses import dataclass, field
from itertools import repeat

from jaxlint.analysis.import_fallbacks import import_fallback
from jaxlint.analysis.syntax import (
    FUNCTION_NODES,
    enclosing_function,
    node_fields,
    parent,
    target_names,
)

SCOPE_NODES = (*FUNCTION_NODES, ast.ClassDef, ast.Module)
_UNSET = object()
# Per thread: while a caller frees the trees it lints by reference counting
# (`run.parallel.lint_task`), `built` is the list of the indexes built, whose nodes it empties
# afterwards (`ModuleIndex.release`); per thread, so that no thread empties another's
RELEASING = threading.local()
_NO_DICT: dict = {}
# the names an unbound Name can mean: the builtins (`print`, `float`) and the module
# attributes every module has. Any other unbound name is unknown (a notebook using a name its
# session bound elsewhere, a star import): giving it its bare name made an unbound `random`
# the stdlib module (v7 hypernerf notebook, JAX204)
BUILTIN_NAMES = frozenset(dir(builtins)) | {
    "__file__",
    "__builtins__",
    "__path__",
    "__annotations__",
}
# node types `ModuleIndex._record` looks at (everything else only gets parent links)
RECORDED = frozenset(
    {
        ast.Name,
        ast.Call,
        ast.Subscript,
        ast.Attribute,
        ast.Import,
        ast.ImportFrom,
        ast.Assign,
        ast.AugAssign,
        ast.AnnAssign,
        ast.For,
        ast.AsyncFor,
        ast.comprehension,
        ast.withitem,
        ast.NamedExpr,
        ast.ExceptHandler,
        ast.Global,
        ast.Nonlocal,
    }
)


@dataclass(slots=True)
class Binding:
    kind: str  # import | assign | def | class | param | local | global
    node: ast.AST | None = None
    qualname: str | None = None  # for imports
    value: ast.expr | None = None  # for single-name assignments


@dataclass(eq=False, slots=True)
class Scope:
    node: ast.AST
    parent: Scope | None
    kind: str  # module | function | class
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    globals: set[str] = field(default_factory=set)  # `global` and `nonlocal` names
    nonlocals: set[str] = field(default_factory=set)
    children: list[Scope] = field(default_factory=list)  # the scopes directly inside it

    def bind(self, name: str, binding: Binding) -> None:
        if name in self.globals:
            # `global x; x = ...` rebinds the module's `x`; `nonlocal x` the enclosing function's
            target = self.parent
            if name in self.nonlocals:
                # the nearest enclosing function binding it (bindings are recorded in no
                # particular order, so fall back to the nearest enclosing function)
                functions = []
                while target is not None:
                    if target.kind == "function":
                        functions.append(target)
                    target = target.parent
                target = next((f for f in functions if name in f.bindings), None)
                if target is None and functions:
                    target = functions[0]
            else:
                while target is not None and target.parent is not None:
                    target = target.parent
            (target or self).bindings.setdefault(name, []).append(binding)
            return
        self.bindings.setdefault(name, []).append(binding)

    @property
    def class_scope(self) -> Scope | None:
        """The class this function is a method of, if any."""
        return self.parent if self.parent is not None and self.parent.kind == "class" else None


def dotted(node: ast.AST) -> str | None:
    """`a.b.c` for a Name/Attribute chain, else None (no resolution)."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


MUTATING_METHODS = frozenset(
    {
        "append",
        "extend",
        "insert",
        "add",
        "update",
        "setdefault",
        "pop",
        "popitem",
        "clear",
        "remove",
        "discard",
        "sort",
        "reverse",
        "appendleft",
        "extendleft",
        "__setitem__",
        "__delitem__",
    }
)


# container mutators that return None: a call whose result is used is a functional API of
# another type (`nbrs = nbrs.update(x)`, `buf = buffer.insert(buf, x)`), not a mutation
NONE_RETURNING_MUTATORS = frozenset(
    {
        "append",
        "extend",
        "insert",
        "add",
        "update",
        "clear",
        "remove",
        "discard",
        "sort",
        "reverse",
        "appendleft",
        "extendleft",
    }
)


def functional_method_call(call: ast.Call) -> bool:
    """A mutator-named method call whose result is used (see NONE_RETURNING_MUTATORS)."""
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr in NONE_RETURNING_MUTATORS
        and not isinstance(parent(call), ast.Expr)
    )


@dataclass(frozen=True, slots=True)
class Write:
    """A write to a module-level name: rebinding it, or mutating the object it holds."""

    name: str
    node: ast.AST  # the statement or call that writes
    kind: str  # rebind | item | attr | method
    function: ast.AST | None  # the function whose body holds the write (None: module level)


# `ctx`, `op` and `ops` hold only field-less singletons (`Load`, `Add`, `Eq`, ...) that
# `ast.parse` shares between all trees: they get no parent link (one would point into
# whichever tree was indexed last, and keep that whole tree alive through the singleton:
# every module's tree and facts survived until the next module was indexed, so the garbage
# collector could not free them young) and are not walked (a quarter of all nodes).
_SINGLETON_FIELDS = frozenset({"ctx", "op", "ops"})
_WALKED_FIELDS: dict[type, tuple[str, ...]] = {}


def _walked_fields(cls: type) -> tuple[str, ...]:
    return tuple(f for f in node_fields(cls) if f not in _SINGLETON_FIELDS)


# what `ModuleIndex._build` does with a child, by its class (`_kind`, memoised in `_KINDS`):
# not a node (a name or a number on Pythons without `_field_types`, `None` in `Dict.keys`),
# a `Name`, a node to walk, a call, a scope, an attribute or subscript (a store target when
# its context says so), another recorded node, a node with nothing under it
_SKIP, _NAME_KIND, _WALK, _CALL, _SCOPE, _TARGET, _RECORD, _LEAF = range(8)
_KINDS: dict[type, int] = {}
_NAME, _ATTRIBUTE = ast.Name, ast.Attribute
# array libraries a backend-generic module binds to a name its owner may rebind (`swappable`)
SWAPPABLE_MODULES = frozenset({"numpy"})
_NAME_OR_ATTRIBUTE = (ast.Name, ast.Attribute)
_GLOBAL_NONLOCAL = frozenset((ast.Global, ast.Nonlocal))
_NONLOCAL = ast.Nonlocal
# `_record`'s classes (exact: the parser makes no subclasses)
_ASSIGN, _AUG_ASSIGN, _ANN_ASSIGN = ast.Assign, ast.AugAssign, ast.AnnAssign
_IMPORT, _IMPORT_FROM = ast.Import, ast.ImportFrom
_LOOP_TARGETS = frozenset((ast.For, ast.comprehension, ast.AsyncFor))
_WITHITEM, _NAMED_EXPR, _EXCEPT_HANDLER = ast.withitem, ast.NamedExpr, ast.ExceptHandler
# a store target's context: `Store` or `Del` (`Load` otherwise), by exact class
_STORE_DEL_CLASSES = frozenset((ast.Store, ast.Del))


def _kind(cls: type) -> int:
    if not issubclass(cls, ast.AST):
        return _SKIP
    if cls is ast.Name:
        return _NAME_KIND
    if issubclass(cls, SCOPE_NODES):
        return _SCOPE
    if cls is ast.Call:
        return _CALL
    if cls is ast.Attribute or cls is ast.Subscript:
        return _TARGET
    if cls in RECORDED:
        return _RECORD
    return _WALK if _walked_fields(cls) else _LEAF


_IN_ORDER: dict[str, bool] = {}


def in_order(name: str) -> bool:
    """Whether `ModuleIndex.order` lists the nodes of the ast class called `name`: not the
    leaves, nodes with no field that can hold a node (`Constant`, `alias`, `Pass`, the
    ctx/op singletons `Load`, `Add`, ...); a name that is no node class matches nothing."""
    found = _IN_ORDER.get(name)
    if found is None:
        cls = getattr(ast, name, None)
        is_node = isinstance(cls, type) and issubclass(cls, ast.AST)
        found = _IN_ORDER[name] = not is_node or _kind(cls) != _LEAF  # type: ignore[arg-type]
    return found


def _one_binding(found: list[Binding] | None, name: str = "") -> Binding | None:
    """`ModuleIndex.binding` of the bindings `lookup` found."""
    if not found:
        return None
    if len(found) == 1:
        return found[0]
    imports = [b for b in found if b.kind == "import"]
    if len({b.qualname for b in imports}) == 1 and all(
        b.kind in ("import", "assign", "local") for b in found
    ):
        return imports[0]
    return import_fallback(found, name) if name else None  # rebound several ways: unknown


class _Qualnames(dict):
    """`ModuleIndex.qualname`'s memo, node -> qualified name, computed on first sight."""

    __slots__ = ("index",)

    def __init__(self, index: ModuleIndex) -> None:
        super().__init__()
        self.index = index

    def __missing__(self, node: ast.AST) -> str | None:
        result = self[node] = self.index._qualname(node, 0)
        return result


class ModuleIndex:
    """Scopes, parents, and the lists of nodes rules and analyses ask for."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.scopes: dict[ast.AST, Scope] = {}
        self.functions: list[ast.AST] = []  # FunctionDef/AsyncFunctionDef/Lambda
        self.classes: list[ast.ClassDef] = []
        self.calls: list[ast.Call] = []
        self.stores: list[ast.AST] = []  # Subscript/Attribute targets of assignments and del
        # `import` statements inside functions (the project index follows them too)
        self.nested_imports: list[ast.Import | ast.ImportFrom] = []
        self.names: dict[str, list[ast.Name]] = {}  # every Name node, by identifier
        # keyed by the node: a dict keyed by `id(node)` probes more (the ids are multiples
        # of 16, the hash of an int is the int; a node's hash shifts its address first)
        self._qual_cache = _Qualnames(self)
        # `qualname` is the memo's own `__getitem__`: a node asked before (most of the
        # ~2,000 questions a file) costs one call in C, no Python frame
        self.qualname = self._qual_cache.__getitem__  # type: ignore[method-assign]
        # analysis/flow/graph.FlowGraphs: program order, built per scope on first question
        self.flow_graphs: object = None
        # analysis/result_uses.py: the names passed as the key of `jax.random.fold_in`
        self.fold_in_keys: frozenset[str] | None = None
        self._module_writes: dict[str, list[Write]] | None = None
        self._imported: dict[str, frozenset[str]] | None = None
        self._import_rows: list[tuple[str, str]] = []  # `imported_names`, from `_record`
        self._inner: frozenset[str] | None = None  # `inner_names`
        self._swappable: dict[str, bool] = {}  # `swappable`, by name
        self._names_by_scope: dict[str, dict[Scope, list[ast.Name]]] = {}  # `names_in`
        # the nodes in preorder (the engine's walk order), each run of nodes of one scope
        # after that `Scope`; not the leaves (`in_order`)
        self.order: list[ast.AST | Scope] = []
        self._build()
        built = getattr(RELEASING, "built", None)
        if built is not None:
            built.append(self)

    # -- construction ---------------------------------------------------------------
    def _build(self) -> None:
        module_scope = Scope(self.tree, None, "module")
        self.scopes[self.tree] = module_scope
        # the walk is the engine's (preorder, children left to right), and `order` keeps it:
        # the engine dispatches from that list instead of walking the tree again
        emit = self.order.append
        stack: list[tuple[ast.AST, Scope]] = [(self.tree, module_scope)]
        pop, push = stack.pop, stack.append
        name_type, enter, record = ast.Name, self._enter, self._record
        names, calls, stores = self.names, self.calls, self.stores
        fields_of, kinds = _WALKED_FIELDS, _KINDS
        current: Scope | None = None
        while stack:
            node, scope = pop()
            if scope is not current:
                emit(scope)
                current = scope
            emit(node)
            fields = fields_of.get(type(node))
            if fields is None:
                fields = fields_of[type(node)] = _walked_fields(type(node))
            # the children pushed, which wait for their turn (a `Name` goes straight to
            # `order` while no sibling before it has been pushed)
            waiting = 0
            for attr in fields:  # ast.iter_child_nodes, inlined: this loop is hot
                value = getattr(node, attr, None)
                if value is None:
                    continue
                for child in value if type(value) is list else (value,):
                    cls = type(child)
                    if cls is name_type:  # a third of all nodes
                        child.jl_parent = node  # type: ignore[attr-defined]
                        child.jl_scope = scope  # type: ignore[attr-defined]
                        found = names.get(child.id)  # type: ignore[attr-defined]
                        if found is None:
                            names[child.id] = [child]  # type: ignore[attr-defined]
                        else:
                            found.append(child)
                        # no children worth walking (its ctx is a singleton)
                        if waiting:
                            push((child, scope))
                            waiting += 1
                        else:
                            emit(child)
                        continue
                    kind = kinds.get(cls)
                    if kind is None:
                        kind = kinds[cls] = _kind(cls)
                    if kind == _SKIP:
                        continue
                    child.jl_parent = node  # type: ignore[attr-defined]
                    # the other kinds by how often they come: walked nodes, attributes and
                    # subscripts, leaves (Constant, alias, ...), calls, recorded statements
                    if kind == _WALK:
                        push((child, scope))
                        waiting += 1
                    elif kind == _TARGET:  # `_record`'s test for these, inlined
                        if type(child.ctx) in _STORE_DEL_CLASSES:  # type: ignore[attr-defined]
                            stores.append(child)
                        push((child, scope))
                        waiting += 1
                    elif kind == _LEAF:  # no field that can hold a node (Constant, alias, ...)
                        continue  # not in `order` (`in_order`)
                    elif kind == _CALL:
                        calls.append(child)
                        push((child, scope))
                        waiting += 1
                    elif kind == _RECORD:
                        record(child, scope)
                        push((child, scope))
                        waiting += 1
                    else:  # _SCOPE
                        # Decorators, defaults and annotations are evaluated in the enclosing
                        # scope; for simplicity they are walked in the new scope, where the
                        # names they use are not rebound (parameters shadow only inside the
                        # body).
                        push((child, enter(child, scope)))
                        waiting += 1
            if waiting > 1:  # pushed first to last: popped last first
                if waiting < 4:  # 2 or 3: swap the ends
                    stack[-1], stack[-waiting] = stack[-waiting], stack[-1]
                else:
                    stack[-waiting:] = stack[-waiting:][::-1]

    def release(self) -> None:
        """Empty the `__dict__` (fields and links) of every node in `order`, and the index,
        for a caller that owns the tree and asks nothing more about either
        (`run.parallel.lint_task`).

        The parent links (`jl_parent`, and `jl_scope` on each `Name`) are what make a tree
        cyclic; with the nodes that hold others emptied, what is left (the leaves, pointing
        at emptied parents) is acyclic, so reference counting frees the tree and the
        collector need not scan it. Clearing a node's dict is the work its deallocation
        would do anyway; in C, no frame per node. The index itself is emptied too: its
        cycle with its qualified-name memo (`_Qualnames.index`) held the scopes, bindings
        and lists, most of what the collector still scanned (on the corpus, 0.70M objects
        collected -> 0.12M)."""
        # a `Scope` in `order` has no `__dict__`: it gets an empty dict to clear
        nodes = map(getattr, self.order, repeat("__dict__"), repeat(_NO_DICT))
        deque(map(dict.clear, nodes), 0)
        self.__dict__.clear()

    def _enter(self, node: ast.AST, scope: Scope) -> Scope:
        if isinstance(node, ast.ClassDef):
            scope.bind(node.name, Binding("class", node))
            self.classes.append(node)
            new = Scope(node, scope, "class")
        else:
            if not isinstance(node, ast.Lambda):
                scope.bind(node.name, Binding("def", node))
            self.functions.append(node)
            new = Scope(node, scope, "function")
            args = node.args
            for a in (*args.posonlyargs, *args.args, *args.kwonlyargs):
                new.bind(a.arg, Binding("param", a))
            for a in (args.vararg, args.kwarg):
                if a is not None:
                    new.bind(a.arg, Binding("param", a))
            # globals declared anywhere in the body are bound at module level
            body = node.body if type(node.body) is list else []
            for stmt in body:
                if type(stmt) in _GLOBAL_NONLOCAL:  # exact: the parser makes no subclasses
                    new.globals.update(stmt.names)
                    if isinstance(stmt, ast.Nonlocal):
                        new.nonlocals.update(stmt.names)
        self.scopes[node] = new
        scope.children.append(new)
        return new

    def _record(self, node: ast.AST, scope: Scope) -> None:
        """The bindings of a `RECORDED` statement other than the kinds `_build` handles
        itself (`Name`, `Call`, `Attribute`, `Subscript`), the commonest first. Exact
        classes (`type(node) is`): the parser makes no subclasses, and an `isinstance` with
        a module attribute costs several times a class comparison."""
        cls = type(node)
        if cls is _ASSIGN:
            targets = node.targets  # type: ignore[attr-defined]
            if len(targets) == 1 and type(targets[0]) is _NAME:
                scope.bind(targets[0].id, Binding("assign", node, None, node.value))  # type: ignore[attr-defined]
            else:
                for t in targets:
                    for name in target_names(t):
                        scope.bind(name, Binding("local", node))
        elif cls in _LOOP_TARGETS:
            for name in target_names(node.target):  # type: ignore[attr-defined]
                scope.bind(name, Binding("local", node))
        elif cls is _IMPORT_FROM:
            if scope.kind == "function":
                self.nested_imports.append(node)  # type: ignore[arg-type]
            module, level = node.module, node.level  # type: ignore[attr-defined]
            for alias in node.names:  # type: ignore[attr-defined]
                if alias.name == "*":
                    continue
                qual = f"{module}.{alias.name}" if module and not level else None
                local = alias.asname or alias.name
                scope.bind(local, Binding("import", node, qual))
                if qual is not None:
                    self._import_rows.append((local, qual))
        elif cls is _IMPORT:
            if scope.kind == "function":
                self.nested_imports.append(node)  # type: ignore[arg-type]
            for alias in node.names:  # type: ignore[attr-defined]
                if alias.asname:
                    scope.bind(alias.asname, Binding("import", node, alias.name))
                    self._import_rows.append((alias.asname, alias.name))
                else:
                    head = alias.name.split(".")[0]
                    scope.bind(head, Binding("import", node, head))
                    self._import_rows.append((head, head))
        elif cls is _AUG_ASSIGN or cls is _ANN_ASSIGN:
            target = node.target  # type: ignore[attr-defined]
            if type(target) is _NAME:
                value = node.value if cls is _ANN_ASSIGN else None  # type: ignore[attr-defined]
                kind = "assign" if value is not None else "local"
                scope.bind(target.id, Binding(kind, node, None, value))
        elif cls is _WITHITEM:
            if node.optional_vars is not None:  # type: ignore[attr-defined]
                for name in target_names(node.optional_vars):  # type: ignore[attr-defined]
                    scope.bind(name, Binding("local", node))
        elif cls is _NAMED_EXPR:
            if type(node.target) is _NAME:  # type: ignore[attr-defined]
                scope.bind(node.target.id, Binding("local", node))  # type: ignore[attr-defined]
        elif cls is _EXCEPT_HANDLER:
            if node.name:  # type: ignore[attr-defined]
                scope.bind(node.name, Binding("local", node))  # type: ignore[attr-defined]
        elif cls in _GLOBAL_NONLOCAL:
            scope.globals.update(node.names)  # type: ignore[attr-defined]
            if cls is _NONLOCAL:
                scope.nonlocals.update(node.names)  # type: ignore[attr-defined]

    # -- queries ----------------------------------------------------------------------
    def scope_of(self, node: ast.AST) -> Scope:
        """Innermost scope containing `node` (a scope node maps to its own scope)."""
        s = getattr(node, "jl_scope", None)
        if s is not None:
            return s
        cur: ast.AST | None = node
        while cur is not None:
            if cur in self.scopes:
                return self.scopes[cur]
            cur = parent(cur)
        return self.scopes[self.tree]

    def names_in(self, ident: str, scope: Scope, *, nested: bool = False) -> list[ast.Name]:
        """`ident`'s Name nodes in `scope` (`nested`: also below it), grouped once per name."""
        groups = self._names_by_scope.get(ident)
        if groups is None:
            groups = self._names_by_scope[ident] = {}
            for ref in self.names.get(ident, ()):
                groups.setdefault(self.scope_of(ref), []).append(ref)
        out, todo = [], [scope]
        while todo:
            cur = todo.pop()
            out.extend(groups.get(cur, ()))
            todo.extend(cur.children if nested else ())
        return out

    def lookup(self, name: str, scope: Scope) -> list[Binding] | None:
        s: Scope | None = scope
        first = True
        while s is not None:
            if s.kind != "class" or first:
                if name in s.globals and s.kind != "module":
                    s = self.scopes[self.tree]
                    continue
                found = s.bindings.get(name)
                if found:
                    return found
            first = False
            s = s.parent
        return None

    def binding(self, name: str, scope: Scope) -> Binding | None:
        """The one binding a name has, preferring an import over fallbacks."""
        return _one_binding(self.lookup(name, scope), name)

    def swappable(self, name: str) -> bool:
        """`name` is bound to an array library (`import numpy as np`) whose `__name__` the
        module reads: code that asks which library its `np` is now (`if "jax" in
        np.__name__:`) is written for a backend its owner swaps (gwpopulation's `set_backend`
        rebinds a module's `np` to `jax.numpy`), so `np.abs` there may be `jnp.abs`: its
        qualified name is unknown, not NumPy's (v30 gwkokab, JAX101 x7 on the JAX-only path)."""
        found = self._swappable.get(name)
        if found is None:
            found = self._swappable[name] = any(
                type(up := parent(n)) is _ATTRIBUTE and up.attr == "__name__"  # type: ignore[attr-defined]
                for n in self.names.get(name, ())
            )
        return found

    def qualname(self, node: ast.AST, _depth: int = 0) -> str | None:
        """Fully qualified dotted name of a Name/Attribute chain, or None when unknown.

        Unbound builtins resolve to their bare name (`print`, `float`); any other unbound
        name is unknown (None).
        """
        result = self._qual_cache.get(node, _UNSET)  # `_Qualnames`: with a depth
        if result is not _UNSET:
            return result  # type: ignore[return-value]
        result = self._qualname(node, _depth)
        self._qual_cache[node] = result
        return result

    def _qualname(self, node: ast.AST, depth: int) -> str | None:
        if depth > 8:
            return None
        # by exact class (the parser makes no subclasses): `isinstance(node, ast.Attribute)`
        # costs a module attribute and a call, and this runs ~70,000 times on every 4th file
        # of the corpus
        cls = type(node)
        if cls is _ATTRIBUTE:
            base = ModuleIndex.qualname(self, node.value, depth + 1)  # type: ignore[attr-defined]
            return f"{base}.{node.attr}" if base else None  # type: ignore[attr-defined]
        if cls is not _NAME:
            return None
        found = self.lookup(node.id, self.scope_of(node))  # type: ignore[attr-defined]
        if found is None:
            return node.id if node.id in BUILTIN_NAMES else None
        # `binding`, without looking the name up again
        b = _one_binding(found, node.id)  # type: ignore[attr-defined]
        if b is None:
            return None
        if b.kind == "import":
            if b.qualname in SWAPPABLE_MODULES and self.swappable(node.id):  # type: ignore[attr-defined]
                return None  # NumPy or JAX's, whichever its owner set (`swappable`)
            return b.qualname
        if b.kind == "assign" and type(b.value) in _NAME_OR_ATTRIBUTE:
            return ModuleIndex.qualname(self, b.value, depth + 1)  # type: ignore[arg-type]
        return None

    def resolve_function(self, node: ast.AST) -> ast.AST | None:
        """The def a Name (or `self.method`) refers to, in this module."""
        if isinstance(node, FUNCTION_NODES):
            return node
        if isinstance(node, ast.Name):
            b = self.binding(node.id, self.scope_of(node))
            if b is None:
                return self._rewrapped_def(node)
            if b.kind == "def":
                return b.node
            if (
                b.kind == "assign"
                and isinstance(b.value, (ast.Name, ast.Lambda))
                and b.value is not node
            ):
                return self.resolve_function(b.value)
            if b.kind == "assign" and isinstance(b.value, ast.Call):
                return self._factory_product(b.value)
            return None
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in ("self", "cls")
        ):
            scope = self.scope_of(node)
            while scope is not None and scope.kind != "function":
                scope = scope.parent
            cls = scope.class_scope if scope is not None else None
            if cls is not None:
                for b in cls.bindings.get(node.attr, []):
                    if b.kind == "def":
                        return b.node
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            return self._classmethod(node)
        return None

    def _classmethod(self, node: ast.Attribute) -> ast.AST | None:
        """`Meta.create` where `Meta` is a class of this module and `create` its
        `@classmethod` (called like a bound method: the class fills `cls`)."""
        b = self.binding(node.value.id, self.scope_of(node.value))  # type: ignore[attr-defined]
        if b is None or b.kind != "class" or not isinstance(b.node, ast.ClassDef):
            return None
        for stmt in b.node.body:
            if (
                isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
                and stmt.name == node.attr
                and any(
                    isinstance(d, ast.Name) and d.id == "classmethod" for d in stmt.decorator_list
                )
            ):
                return stmt
        return None

    def _factory_product(self, call: ast.Call) -> ast.AST | None:
        """The def a closure factory returns: `apply_fun = Dropout(0.5)` where `Dropout` is a
        def of this module whose every `return` gives the same def nested in it (the stax /
        optax `def make(...): def apply(...): ...; return apply` idiom). Calling the result
        runs that nested def's body."""
        if not isinstance(call.func, ast.Name):
            return None
        b = self.binding(call.func.id, self.scope_of(call.func))
        if b is None or b.kind != "def" or not isinstance(b.node, ast.FunctionDef):
            return None
        factory = b.node
        product: ast.AST | None = None
        stack = list(ast.iter_child_nodes(factory))
        while stack:
            cur = stack.pop()
            if isinstance(cur, ast.Return):
                if not isinstance(cur.value, ast.Name):
                    return None
                inner = self.binding(cur.value.id, self.scope_of(cur.value))
                if inner is None or inner.kind != "def" or parent(inner.node) is not factory:
                    return None
                if product is not None and inner.node is not product:
                    return None
                product = inner.node
            elif not isinstance(cur, (*FUNCTION_NODES, ast.ClassDef)):
                stack.extend(ast.iter_child_nodes(cur))
        return product

    def _rewrapped_def(self, node: ast.Name) -> ast.AST | None:
        """The def behind a name rebound by wrapping it: `init = jax.jit(init)`.

        The name has one `def` and otherwise only assignments of a call that takes the name
        itself (`f = wrap(f, ...)`), so every binding runs that def's body: the wrapped
        function is the def compiled or decorated, and `jit(init)` on the right-hand side
        names the def. Any other rebinding leaves the name unknown.
        """
        found = self.lookup(node.id, self.scope_of(node))
        if not found:
            return None
        defs = [b for b in found if b.kind == "def"]
        if len(defs) != 1:
            return None
        for b in found:
            if b.kind == "def":
                continue
            value = b.value
            if b.kind != "assign" or not isinstance(value, ast.Call):
                return None
            args = [*value.args, *(kw.value for kw in value.keywords)]
            if not any(isinstance(a, ast.Name) and a.id == node.id for a in args):
                return None
        return defs[0].node

    def enclosing_function(self, node: ast.AST) -> ast.AST | None:
        return enclosing_function(node)

    def imported_names(self) -> dict[str, frozenset[str]]:
        """Each name an import binds in some scope -> the qualified names it imports there
        (`np` -> {"numpy"}); relative imports, which resolve to nothing, are left out.
        Computed once: the rename tables each scan it per module."""
        if self._imported is None:
            # the (name, qualified name) of every import binding, recorded as the walk made
            # them (each lives in some scope's bindings; no other binding is an import)
            found: dict[str, set[str]] = {}
            for name, qualname in self._import_rows:
                found.setdefault(name, set()).add(qualname)
            self._imported = {name: frozenset(qs) for name, qs in found.items()}
        return self._imported

    def inner_names(self) -> frozenset[str]:
        """The names some function or class scope binds (computed once): `lookup` of any other
        name ends in the module's scope, whichever scope it starts from."""
        if self._inner is None:
            module = self.scopes[self.tree]
            self._inner = frozenset(
                name
                for scope in self.scopes.values()
                if scope is not module
                for name in scope.bindings
            )
        return self._inner

    def module_writes(self) -> dict[str, list[Write]]:
        """Writes to each module-level name: rebindings (module level or through `global`),
        item/attribute stores and mutating method calls (`X[k] = v`, `X.append(v)`)."""
        if self._module_writes is not None:
            return self._module_writes
        module = self.scopes[self.tree]
        out: dict[str, list[Write]] = {}

        def add(name: str, node: ast.AST, kind: str) -> None:
            out.setdefault(name, []).append(Write(name, node, kind, self.enclosing_function(node)))

        for name, bindings in module.bindings.items():
            if len(bindings) < 2 and not any(
                b.node is not None and self.enclosing_function(b.node) is not None for b in bindings
            ):
                continue
            for b in bindings:
                if b.node is not None and b.kind not in ("param",):
                    add(name, b.node, "rebind")
        for store in self.stores:
            base = store.value  # type: ignore[attr-defined]
            if isinstance(base, ast.Name) and self.is_module_name(base):
                add(base.id, store, "item" if isinstance(store, ast.Subscript) else "attr")
        for call in self.calls:
            func = call.func
            if (
                isinstance(func, ast.Attribute)
                and func.attr in MUTATING_METHODS
                and isinstance(func.value, ast.Name)
                and self.is_module_name(func.value)
                and not functional_method_call(call)
            ):
                add(func.value.id, call, "method")
        for writes in out.values():
            writes.sort(
                key=lambda w: (getattr(w.node, "lineno", 0), getattr(w.node, "col_offset", 0))
            )
        self._module_writes = out
        return out

    def is_module_name(self, name: ast.Name) -> bool:
        """`name` refers to a binding of the module scope (not a local or a builtin)."""
        scope = self.scope_of(name)
        module = self.scopes[self.tree]
        s: Scope | None = scope
        first = True
        while s is not None:
            if s.kind != "class" or first:
                if name.id in s.globals and s.kind != "module":
                    return name.id in module.bindings
                if name.id in s.bindings:
                    return s is module
            first = False
            s = s.parent
        return False
