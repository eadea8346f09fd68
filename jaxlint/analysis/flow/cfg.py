"""The flow graph of one scope: flow nodes, edges, and reaching definitions over them.

pyright's binder and ty's use-def map, for the questions the analyses ask about program
order: which bindings of a name may reach this load, is the name bound on every path to this
statement, may this statement run after that one. One graph per scope (module, class body,
function, lambda), built on the first question about it, from the scopes, bindings and
parent links of the one-walk `ModuleIndex` (a file that never asks pays nothing).

Flow nodes are steps of straight-line events (a load of a name, a binding, a `del`) in
evaluation order, with predecessor edges:

- `if`: the test, then both arms; `while`/`for`: a head that the body's end and every
  `continue` go back to, `else` from the head, `break` past the `else`; `while True` only
  leaves by `break`; a `for` whose step count the source proves positive (`range(3)`, a
  literal list: analysis/trips.py) enters its first step without passing the head, so no
  path skips its body;
- `try`: every handler may start before any step of the body or after it (a binding in the
  body may or may not reach a handler); `finally` is entered from the body, the handlers,
  `else`, and every exception and `return`/`break`/`continue` in them, and goes on to each of
  those places (one copy of the `finally` body: an over-approximation);
- `with` is straight-line (a context manager that swallows an exception is not modelled);
- `match`: each case's pattern may fail (to the next case), its guard too, after the
  pattern's captures are bound; a last case that cannot fail (`case _:`) ends the chain;
- `return`, `raise`, `break`, `continue` end a path; the statements after them are dead and
  are reached only through dead edges, which carry the last state into them (the walker's
  "walked with the last state, for the record") and are not paths for `may_run_after`;
- an `except ... as e` handler deletes `e` at its end, as Python does.

Comprehensions are not scopes here (as in the module index): the names their `for` clauses
bind are local to them (a load of one inside the comprehension reaches that clause only and
the binding does not flow out); a walrus inside a comprehension, a conditional expression or
the right of `and`/`or` may not run, so it adds a binding without removing the others.
Names declared `global`/`nonlocal`, or written from another scope, are not tracked: a
question about them answers None (unknown). Nested functions have their own graph; a load of
a name of an enclosing scope is answered at the statement that defines the nested scope (the
value it sees when it is defined).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum

from jaxlint.analysis.imports import Binding, ModuleIndex, Scope
from jaxlint.analysis.syntax import target_names
from jaxlint.analysis.trips import runs_at_least_once

__all__ = ["DefKind", "Definition", "FlowGraph", "FlowNode", "build_graph"]

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_TRY = tuple(t for t in (ast.Try, getattr(ast, "TryStar", None)) if t is not None)


class DefKind(str, Enum):
    UNBOUND = "unbound"  # not bound yet on this path (scope entry)
    PARAM = "param"
    BIND = "bind"  # assignment, `for`/`with` target, import, def, class, except, capture
    AUGMENT = "augment"  # `x += 1`: a new value made from the old one
    DELETE = "delete"  # `del x`, and the end of an `except ... as x` handler


@dataclass(frozen=True, eq=False, slots=True)
class Definition:
    """One place a name gets (or loses) its value. `node` is the node the module index
    records the binding on (the `Assign`, `For`, `withitem`, `arg`, `NamedExpr`, ...);
    `binding` is the index's binding, None where the index records none (a `del`, a match
    capture, scope entry). `certain` is False for a binding that may not run when its step
    does (a walrus in a branch of an expression): it adds to what reaches, removes nothing."""

    name: str
    kind: DefKind
    node: ast.AST | None = None
    binding: Binding | None = None
    certain: bool = True

    @property
    def binds(self) -> bool:
        """After it the name holds a value."""
        return self.kind in (DefKind.PARAM, DefKind.BIND, DefKind.AUGMENT)


@dataclass(frozen=True, slots=True)
class FlowNode:
    """A step: events in evaluation order (a `Name` load, or a `Definition`), and the steps
    that may run right before it (`preds`); `dead_preds` carry the last state into a step
    that no path reaches. `owner` is the statement (or handler, case) it belongs to."""

    index: int
    owner: ast.AST | None
    events: tuple[ast.Name | Definition, ...]
    preds: tuple[int, ...]
    dead_preds: tuple[int, ...]


@dataclass(frozen=True)
class FlowGraph:
    """The graph of one scope. Reaching definitions are computed per name, on the first
    question about that name (a function asked about one name pays for one)."""

    scope: ast.AST
    nodes: tuple[FlowNode, ...]
    tracked: frozenset[str]  # names this graph answers for (bound here, by this scope only)
    reachable: frozenset[int]  # nodes some path from the entry reaches
    # (first node, end) of each statement, handler and case: its nodes are [first, end)
    spans: Mapping[ast.AST, tuple[int, int]]
    _use_node: Mapping[ast.Name, int] = field(repr=False)  # the node of each load
    _local: Mapping[ast.Name, frozenset[Definition]] = field(repr=False)  # comprehension vars
    _unbound: Mapping[str, Definition] = field(repr=False)
    _flow_preds: tuple[tuple[int, ...], ...] = field(repr=False)  # what each node joins
    _defs: tuple[tuple[Definition, ...], ...] = field(repr=False)  # the bindings of a node
    _succs: tuple[tuple[int, ...], ...] = field(repr=False)
    _maybe: frozenset[ast.Name] = field(repr=False, default=frozenset())  # loads that may not run
    _returns: tuple[int, ...] = field(repr=False, default=())  # last steps of normal exits
    _ins: dict[str, list[frozenset[Definition]]] = field(repr=False, default_factory=dict)

    def reaching(self, use: ast.Name) -> frozenset[Definition] | None:
        """The use-def map: the definitions that may reach a load; None when the name is not
        tracked here (or the load is not in this scope)."""
        local = self._local.get(use)
        if local is not None:
            return local
        n = self._use_node.get(use)
        if n is None or use.id not in self.tracked:
            return None
        state = self._states(use.id)[n]
        for e in self.nodes[n].events:
            if e is use:
                break
            if isinstance(e, Definition) and e.name == use.id:
                state = frozenset((e,)) if e.certain else state | {e}
        return state

    def reaching_at(self, name: str, where: ast.AST) -> frozenset[Definition] | None:
        """The definitions of `name` that may reach the start of statement `where`."""
        span = self.spans.get(where)
        if span is None or name not in self.tracked:
            return None
        return self._states(name)[span[0]]

    def _states(self, name: str) -> list[frozenset[Definition]]:
        """What reaches the start of each node, for one name, to a fixed point. A node no
        path reaches joins its dead edges too (the last state, for the record)."""
        ins = self._ins.get(name)
        if ins is not None:
            return ins
        count = len(self.nodes)
        empty: frozenset[Definition] = frozenset()
        start = frozenset((self._unbound[name],))
        found: list[frozenset[Definition] | None] = [None] * count
        outs: list[frozenset[Definition] | None] = [None] * count
        preds, defs = self._flow_preds, self._defs
        changed = True
        while changed:
            changed = False
            for n in range(count):
                if n == 0:
                    state: frozenset[Definition] | None = start
                else:
                    state = None
                    for p in preds[n]:
                        o = outs[p]
                        if o is not None and o is not state:
                            state = o if state is None else state | o
                if state is None:
                    continue
                found[n] = state
                out: frozenset[Definition] = state
                for d in defs[n]:
                    if d.name == name:
                        out = frozenset((d,)) if d.certain else out | {d}
                if out != outs[n]:
                    outs[n] = out
                    changed = True
        ins = self._ins[name] = [s if s is not None else empty for s in found]
        return ins

    def bound_at(self, name: str, where: ast.AST) -> bool:
        """`name` holds a value on every path to statement `where` (no path leaves it unbound
        or deleted); False when unknown."""
        defs = self.reaching_at(name, where)
        return bool(defs) and all(d.binds for d in defs or ())

    def binding_read(self, name: str, node: ast.AST) -> bool | None:
        """Some load of `name` in this scope may see the value bound at `node` (the
        statement, `for`, `withitem`, ... the binding is recorded on): the def-use side of
        the use-def map. `x += 1` reads the value it replaces. None when `name` is not
        tracked here (unknown)."""
        if name not in self.tracked:
            return None
        for use in self._use_node:
            if use.id == name:
                defs = self.reaching(use)
                if defs and any(d.node is node and d.binds for d in defs):
                    return True
        return self._augmented_from(name, node)

    def _augmented_from(self, name: str, node: ast.AST) -> bool:
        """An `x += ...` of `name` that the value bound at `node` may reach."""
        states = None
        for n, defs in enumerate(self._defs):
            if not any(d.name == name and d.kind is DefKind.AUGMENT for d in defs):
                continue
            states = states if states is not None else self._states(name)
            state = states[n]
            for d in defs:
                if d.name != name:
                    continue
                if d.kind is DefKind.AUGMENT and any(r.node is node and r.binds for r in state):
                    return True
                state = frozenset((d,)) if d.certain else state | {d}
        return False

    def reaches_exit(self, name: str, node: ast.AST) -> bool | None:
        """The value bound at `node` may still be bound to `name` when the scope ends
        normally (a `return`, the end of the body): a module's names stay importable. None
        when `name` is not tracked here."""
        if name not in self.tracked:
            return None
        states = self._states(name)
        for n in self._returns:
            state = states[n]
            for d in self._defs[n]:
                if d.name == name:
                    state = frozenset((d,)) if d.certain else state | {d}
            if any(d.node is node and d.binds for d in state):
                return True
        return False

    def always_evaluated(self, use: ast.Name) -> bool:
        """The load `use` runs on every path from the scope's entry to a normal exit (a
        `return` or the end of the body; a path that raises is no exit): not in a branch, a
        loop body, a handler, a `match` case, after an early `return`, nor in a part of an
        expression that may not run (a branch of `a if c else b`, the right of `and`/`or`, a
        comprehension's element). False when the load is not in this scope or no path reaches
        it."""
        n = self._use_node.get(use)
        if n is None or use in self._maybe or use in self._local or n not in self.reachable:
            return False
        if n == 0:
            return True
        returns = set(self._returns)
        seen = {0}
        todo = [0]
        while todo:
            cur = todo.pop()
            if cur in returns:
                return False  # an exit reached without running `use`
            for s in self._succs[cur]:
                if s != n and s not in seen:
                    seen.add(s)
                    todo.append(s)
        return True

    def may_run_after(self, first: ast.AST, then: ast.AST) -> bool:
        """Some path runs statement `then` after (a step of) statement `first`: in a later
        step of a loop, too. Dead edges are no paths."""
        a, b = self.spans.get(first), self.spans.get(then)
        if a is None or b is None:
            return False
        target = b[0]
        seen: set[int] = set()
        todo = [s for i in range(*a) for s in self._succs[i]]
        while todo:
            n = todo.pop()
            if n == target:
                return True
            if n in seen:
                continue
            seen.add(n)
            todo.extend(self._succs[n])
        return False

    def may_run_before_first(self, first: ast.AST, then: ast.AST) -> bool:
        """Some path from the entry runs statement `first` and then reaches statement `then`
        for the first time (a later step of a loop does not count, nor an arm that excludes
        `then`: "was it warmed up before its first timed call"). Dead edges are no paths."""
        a, b = self.spans.get(first), self.spans.get(then)
        if a is None or b is None:
            return False
        lo, hi = a
        stop = b[0]
        seen = {0}
        todo = [0] if stop != 0 else []
        ran: list[int] = []  # steps of `first` some path reaches before any of `then`
        while todo:
            n = todo.pop()
            if lo <= n < hi:
                ran.append(n)
            for s in self._succs[n]:
                if s != stop and s not in seen:
                    seen.add(s)
                    todo.append(s)
        # ... and from which `then` can still be reached (not an arm that excludes it)
        seen = set(ran)
        todo = list(ran)
        while todo:
            n = todo.pop()
            for s in self._succs[n]:
                if s == stop:
                    return True
                if s not in seen:
                    seen.add(s)
                    todo.append(s)
        return False


# -- building -----------------------------------------------------------------------------


@dataclass
class _Node:
    owner: ast.AST | None
    events: list[ast.Name | Definition]
    preds: list[int] = field(default_factory=list)
    dead: list[int] = field(default_factory=list)


@dataclass
class _Loop:
    head: int
    breaks: list[int] = field(default_factory=list)
    continues: list[int] = field(default_factory=list)


@dataclass
class _Finally:
    loop_depth: int
    jumps: list[str] = field(default_factory=list)  # "return" | "break" | "continue"


class _Builder:
    """Statements to nodes; events from the statements' own expressions (not entering
    nested scopes)."""

    def __init__(self, index: ModuleIndex, scope_node: ast.AST) -> None:
        self.index = index
        self.scope_node = scope_node
        self.scope: Scope = index.scopes[scope_node]
        self.nodes: list[_Node] = []
        self.current: list[int] = []
        self.loops: list[_Loop] = []
        self.finals: list[_Finally] = []
        self.exits: list[int] = []
        self.returns: list[int] = []  # normal exits: `return` and the end of the body
        self.maybe: set[ast.Name] = set()  # loads in a part of an expression that may not run
        self.spans: dict[ast.AST, tuple[int, int]] = {}
        self.defs: dict[tuple[str, int, DefKind, bool], Definition] = {}
        self.seen: set[tuple[str, int]] = set()  # (name, id(node)) of index bindings met
        self.comp_uses: dict[ast.Name, frozenset[Definition]] = {}
        self.untracked: set[str] = set(self.scope.globals)
        self._bindings: dict[tuple[str, int], Binding] = {
            (name, id(b.node)): b for name, bs in self.scope.bindings.items() for b in bs
        }

    # -- nodes and edges --------------------------------------------------------------------
    def node(self, owner: ast.AST | None, events: list[ast.Name | Definition]) -> int:
        i = len(self.nodes)
        n = _Node(owner, events, list(self.current))
        if not self.current and self.nodes:
            n.dead.append(i - 1)  # dead code: the last state, for the record
        self.nodes.append(n)
        self.current = [i]
        return i

    def edge(self, src: int, dst: int) -> None:
        self.nodes[dst].preds.append(src)

    def definition(
        self, name: str, kind: DefKind, node: ast.AST | None, certain: bool = True
    ) -> Definition:
        """The one `Definition` of a binding site (the same object on every pass)."""
        if kind is not DefKind.DELETE:
            self.seen.add((name, id(node)))
        key = (name, id(node), kind, certain)
        d = self.defs.get(key)
        if d is None:
            binding = self._bindings.get((name, id(node))) if kind is not DefKind.DELETE else None
            d = self.defs[key] = Definition(name, kind, node, binding, certain)
        return d

    # -- events of expressions --------------------------------------------------------------
    def loads(self, expr: ast.AST | None, out: list[ast.Name | Definition]) -> None:
        """The loads and walrus bindings of an expression, in source order."""
        if expr is None:
            return
        found: list[tuple[tuple[int, int], ast.Name | Definition]] = []
        self._expr(expr, found, certain=True, local=frozenset())
        found.sort(key=lambda p: p[0])
        out.extend(e for _, e in found)

    def _expr(
        self,
        expr: ast.AST,
        found: list[tuple[tuple[int, int], ast.Name | Definition]],
        certain: bool,
        local: frozenset[str],
    ) -> None:
        stack: list[tuple[ast.AST, bool]] = [(expr, certain)]
        while stack:
            node, sure = stack.pop()
            t = type(node)
            if t is ast.Name:
                assert isinstance(node, ast.Name)
                if isinstance(node.ctx, ast.Load):
                    if node.id in local:
                        continue  # a comprehension's own variable (recorded by _comprehension)
                    found.append(((node.lineno, node.col_offset), node))
                    if not sure:
                        self.maybe.add(node)
                continue
            if t is ast.NamedExpr:
                assert isinstance(node, ast.NamedExpr)
                stack.append((node.value, sure))
                if isinstance(node.target, ast.Name):
                    d = self.definition(node.target.id, DefKind.BIND, node, sure)
                    end = (node.end_lineno or node.lineno, node.end_col_offset or 0)
                    found.append((end, d))
                continue
            if t is ast.Lambda:
                assert isinstance(node, ast.Lambda)
                args = node.args
                for default in (*args.defaults, *args.kw_defaults):
                    if default is not None:
                        stack.append((default, sure))
                continue
            if t in _COMPREHENSIONS:
                self._comprehension(node, found, sure, local)
                continue
            if t is ast.IfExp:
                assert isinstance(node, ast.IfExp)
                stack.append((node.test, sure))
                stack.append((node.body, False))
                stack.append((node.orelse, False))
                continue
            if t is ast.BoolOp:
                assert isinstance(node, ast.BoolOp)
                stack.append((node.values[0], sure))
                stack.extend((v, False) for v in node.values[1:])
                continue
            for name in node._fields:  # ast.iter_child_nodes, inlined (hot)
                if name == "ctx":
                    continue
                value = getattr(node, name, None)
                if isinstance(value, list):
                    stack.extend((c, sure) for c in value if isinstance(c, ast.AST))
                elif isinstance(value, ast.AST):
                    stack.append((value, sure))

    def _comprehension(
        self,
        node: ast.AST,
        found: list[tuple[tuple[int, int], ast.Name | Definition]],
        certain: bool,
        local: frozenset[str],
    ) -> None:
        gens: list[ast.comprehension] = node.generators  # type: ignore[attr-defined]
        names = set(local)
        own: dict[str, Definition] = {}
        for i, gen in enumerate(gens):
            # the first iterable runs in the enclosing scope, before the comprehension
            self._expr(gen.iter, found, certain if i == 0 else False, frozenset(names))
            self._record_local(gen.iter, own)
            for target in target_names(gen.target):
                names.add(target)
                own[target] = self.definition(target, DefKind.BIND, gen)
            for cond in gen.ifs:
                self._expr(cond, found, False, frozenset(names))
                self._record_local(cond, own)
        parts = (
            (node.key, node.value) if isinstance(node, ast.DictComp) else (node.elt,)  # type: ignore[attr-defined]
        )
        for part in parts:
            self._expr(part, found, False, frozenset(names))
            self._record_local(part, own)

    def _record_local(self, expr: ast.AST, own: Mapping[str, Definition]) -> None:
        """Loads of a comprehension's own variables reach its clause, nothing else."""
        stack = [expr]
        while stack:
            node = stack.pop()
            if isinstance(node, ast.Name):
                if isinstance(node.ctx, ast.Load) and node.id in own:
                    self.comp_uses.setdefault(node, frozenset({own[node.id]}))
                continue
            if isinstance(node, ast.Lambda):
                continue
            stack.extend(ast.iter_child_nodes(node))

    def targets(self, target: ast.AST, node: ast.AST, out: list[ast.Name | Definition]) -> None:
        """Bindings of an assignment target (and the loads in `a[i] = ...`), left to right."""
        if isinstance(target, ast.Name):
            out.append(self.definition(target.id, DefKind.BIND, node))
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                self.targets(elt, node, out)
        elif isinstance(target, ast.Starred):
            self.targets(target.value, node, out)
        else:
            self.loads(target, out)  # `a[i] = v`, `a.b = v`: loads of `a` and `i`

    # -- statements -------------------------------------------------------------------------
    def build(self) -> None:
        entry: list[ast.Name | Definition] = []
        scope = self.scope_node
        if isinstance(scope, (*_FUNCTIONS, ast.Lambda)):
            args = scope.args
            params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
            params += [a for a in (args.vararg, args.kwarg) if a is not None]
            entry.extend(self.definition(a.arg, DefKind.PARAM, a) for a in params)
        self.node(None, entry)
        if isinstance(scope, ast.Lambda):
            events: list[ast.Name | Definition] = []
            self.loads(scope.body, events)
            self.node(scope.body, events)
        else:
            self.block(scope.body)  # type: ignore[attr-defined]
        self.exits.extend(self.current)
        self.returns.extend(self.current)

    def block(self, stmts: Iterable[ast.stmt]) -> None:
        for s in stmts:
            start = len(self.nodes)
            self.stmt(s)
            self.spans[s] = (start, len(self.nodes))

    def stmt(self, s: ast.stmt) -> None:  # noqa: C901
        ev: list[ast.Name | Definition] = []
        if isinstance(s, ast.If):
            self.loads(s.test, ev)
            test = self.node(s, ev)
            self.block(s.body)
            body = self.current
            self.current = [test]
            self.block(s.orelse)
            self.current = body + self.current
        elif isinstance(s, ast.While):
            self.loads(s.test, ev)
            head = self.node(s, ev)
            frame = self._loop_body(head, s.body)
            forever = isinstance(s.test, ast.Constant) and bool(s.test.value)
            self._loop_else(frame, s.orelse, exits=not forever)
        elif isinstance(s, (ast.For, ast.AsyncFor)):
            self.loads(s.iter, ev)
            first = self.node(s, ev)
            head = self.node(s, [])
            if runs_at_least_once(s):
                # `for _ in range(3)`, over a literal list: the first step always starts, so
                # the head (which may leave the loop) is reached only from the end of a step
                self.nodes[head].preds.clear()
                self.current = [first, head]
            bind: list[ast.Name | Definition] = []
            self.targets(s.target, s, bind)
            self.node(s, bind)
            frame = self._loop_body(head, s.body)
            self._loop_else(frame, s.orelse, exits=True)
        elif isinstance(s, (ast.With, ast.AsyncWith)):
            for item in s.items:
                self.loads(item.context_expr, ev)
                if item.optional_vars is not None:
                    self.targets(item.optional_vars, item, ev)
            self.node(s, ev)
            self.block(s.body)
        elif isinstance(s, _TRY):
            self._try(s)
        elif isinstance(s, ast.Match):
            self._match(s)
        elif isinstance(s, (ast.Break, ast.Continue)):
            self.node(s, ev)
            self.jump("break" if isinstance(s, ast.Break) else "continue", self.current)
            self.current = []
        elif isinstance(s, ast.Return):
            self.loads(s.value, ev)
            self.node(s, ev)
            self.jump("return", self.current)
            self.current = []
        elif isinstance(s, ast.Raise):
            self.loads(s.exc, ev)
            self.loads(s.cause, ev)
            self.node(s, ev)
            self.exits.extend(self.current)
            self.current = []
        else:
            self.simple(s, ev)
            self.node(s, ev)

    def simple(self, s: ast.stmt, ev: list[ast.Name | Definition]) -> None:  # noqa: C901
        if isinstance(s, ast.Assign):
            self.loads(s.value, ev)
            for t in s.targets:
                self.targets(t, s, ev)
        elif isinstance(s, ast.AugAssign):
            self.loads(s.value, ev)
            if isinstance(s.target, ast.Name):
                ev.append(self.definition(s.target.id, DefKind.AUGMENT, s))
            else:
                self.loads(s.target, ev)
        elif isinstance(s, ast.AnnAssign):
            self.loads(s.value, ev)
            if isinstance(s.target, ast.Name):
                if s.value is not None:
                    ev.append(self.definition(s.target.id, DefKind.BIND, s))
                else:
                    self.seen.add((s.target.id, id(s)))  # `x: int` declares, binds nothing
            else:
                self.loads(s.target, ev)
        elif isinstance(s, ast.Delete):
            for t in s.targets:
                if isinstance(t, ast.Name):
                    ev.append(self.definition(t.id, DefKind.DELETE, s))
                else:
                    self.loads(t, ev)
        elif isinstance(s, (ast.Import, ast.ImportFrom)):
            for alias in s.names:
                if alias.name == "*":
                    continue
                if isinstance(s, ast.Import) and not alias.asname:
                    name = alias.name.split(".")[0]
                else:
                    name = alias.asname or alias.name
                ev.append(self.definition(name, DefKind.BIND, s))
        elif isinstance(s, (*_FUNCTIONS, ast.ClassDef)):
            for dec in s.decorator_list:
                self.loads(dec, ev)
            if isinstance(s, ast.ClassDef):
                for base in (*s.bases, *(k.value for k in s.keywords)):
                    self.loads(base, ev)
            else:
                for default in (*s.args.defaults, *s.args.kw_defaults):
                    self.loads(default, ev)
            ev.append(self.definition(s.name, DefKind.BIND, s))
        elif isinstance(s, (ast.Global, ast.Nonlocal)):
            self.untracked.update(s.names)
        else:  # Expr, Assert, Return-less simple statements, TypeAlias, Pass
            for child in ast.iter_child_nodes(s):
                self.loads(child, ev)

    def _loop_body(self, head: int, body: list[ast.stmt]) -> _Loop:
        frame = _Loop(head)
        self.loops.append(frame)
        self.block(body)
        self.loops.pop()
        for p in (*self.current, *frame.continues):
            self.edge(p, head)
        return frame

    def _loop_else(self, frame: _Loop, orelse: list[ast.stmt], exits: bool) -> None:
        """`else` runs when the loop's head finds no next step (`while True` never does)."""
        self.current = [frame.head] if exits else []
        self.block(orelse)
        self.current = self.current + frame.breaks

    def jump(self, kind: str, preds: list[int]) -> None:
        """Route a `return`/`break`/`continue` (through the `finally` bodies it leaves)."""
        depth = len(self.loops)
        if self.finals and (kind == "return" or self.finals[-1].loop_depth >= depth):
            self.finals[-1].jumps.append(kind)  # the `finally` body goes on from there
            return
        if kind == "return":
            self.exits.extend(preds)
            self.returns.extend(preds)
        elif self.loops:
            frame = self.loops[-1]
            (frame.breaks if kind == "break" else frame.continues).extend(preds)

    def _try(self, s: ast.AST) -> None:
        entry = self.node(s, [])
        final: list[ast.stmt] = getattr(s, "finalbody", [])
        ctx = _Finally(len(self.loops))
        if final:
            self.finals.append(ctx)
        start = len(self.nodes)
        self.block(s.body)  # type: ignore[attr-defined]
        normal = self.current
        may_raise = [entry, *range(start, len(self.nodes))]
        outs: list[int] = []
        for h in s.handlers:  # type: ignore[attr-defined]
            self.current = list(may_raise)
            first = len(self.nodes)
            ev: list[ast.Name | Definition] = []
            self.loads(h.type, ev)
            if h.name:
                ev.append(self.definition(h.name, DefKind.BIND, h))
            self.node(h, ev)
            self.block(h.body)
            if h.name and self.current:
                self.node(h, [self.definition(h.name, DefKind.DELETE, h)])
            self.spans[h] = (first, len(self.nodes))
            outs += self.current
        self.current = normal
        self.block(s.orelse)  # type: ignore[attr-defined]
        outs = self.current + outs
        if not final:
            self.current = outs
            return
        self.finals.pop()
        self.current = sorted({*outs, entry, *range(start, len(self.nodes))})
        self.node(s, [])
        self.block(final)
        end = self.current
        self.exits.extend(end)  # an exception goes on up after `finally`
        for kind in dict.fromkeys(ctx.jumps):
            self.jump(kind, end)
        self.current = end if outs else []

    def _match(self, s: ast.Match) -> None:
        ev: list[ast.Name | Definition] = []
        self.loads(s.subject, ev)
        self.node(s, ev)
        outs: list[int] = []
        for case in s.cases:
            first = len(self.nodes)
            entry = self.node(case, [])
            ev = []
            self._pattern(case.pattern, case, ev)
            self.loads(case.guard, ev)
            pattern = self.node(case, ev)
            self.block(case.body)
            self.spans[case] = (first, len(self.nodes))
            outs += self.current
            fails = [] if case.guard is None and _irrefutable(case.pattern) else [entry]
            self.current = fails + ([pattern] if case.guard is not None else [])
        self.current = outs + self.current

    def _pattern(self, p: ast.AST, case: ast.AST, ev: list[ast.Name | Definition]) -> None:
        for node in ast.walk(p):
            if isinstance(node, (ast.MatchValue, ast.MatchClass, ast.MatchMapping)):
                if isinstance(node, ast.MatchValue):
                    self.loads(node.value, ev)
                elif isinstance(node, ast.MatchClass):
                    self.loads(node.cls, ev)
                else:
                    for key in node.keys:
                        self.loads(key, ev)
            name = getattr(node, "name", None) or getattr(node, "rest", None)
            if isinstance(name, str):
                ev.append(self.definition(name, DefKind.BIND, node))

    # -- the graph --------------------------------------------------------------------------
    def finish(self) -> FlowGraph:
        tracked = {n for n in self.scope.bindings if n not in self.untracked}
        for name, bindings in self.scope.bindings.items():
            if any((name, id(b.node)) not in self.seen for b in bindings):
                tracked.discard(name)  # written from another scope, or not seen: unknown
        for d in self.defs.values():
            if d.name not in self.untracked and d.name not in self.scope.bindings:
                tracked.add(d.name)  # a `del` or a capture the index does not record
        nodes = self.nodes
        reachable = _reachable(nodes)
        use_node: dict[ast.Name, int] = {}
        succs: list[list[int]] = [[] for _ in nodes]
        flow_preds: list[tuple[int, ...]] = []
        defs: list[tuple[Definition, ...]] = []
        for n, node in enumerate(nodes):
            for p in node.preds:
                succs[p].append(n)
            if n in reachable:
                flow_preds.append(tuple(p for p in node.preds if p in reachable))
            else:
                flow_preds.append((*node.preds, *node.dead))
            own = []
            for e in node.events:
                if isinstance(e, Definition):
                    own.append(e)
                else:
                    use_node[e] = n
            defs.append(tuple(own))
        frozen = tuple(
            FlowNode(i, n.owner, tuple(n.events), tuple(n.preds), tuple(n.dead))
            for i, n in enumerate(nodes)
        )
        return FlowGraph(
            scope=self.scope_node,
            nodes=frozen,
            tracked=frozenset(tracked),
            reachable=reachable,
            spans=self.spans,
            _use_node=use_node,
            _local=self.comp_uses,
            _unbound={n: Definition(n, DefKind.UNBOUND, self.scope_node) for n in tracked},
            _flow_preds=tuple(flow_preds),
            _defs=tuple(defs),
            _succs=tuple(tuple(s) for s in succs),
            _maybe=frozenset(self.maybe),
            _returns=tuple(self.returns),
        )


def _irrefutable(p: ast.AST) -> bool:
    if isinstance(p, ast.MatchAs):
        return p.pattern is None or _irrefutable(p.pattern)
    if isinstance(p, ast.MatchOr):
        return any(_irrefutable(q) for q in p.patterns)
    return False


def _reachable(nodes: list[_Node]) -> frozenset[int]:
    succs: list[list[int]] = [[] for _ in nodes]
    for n, node in enumerate(nodes):
        for p in node.preds:
            succs[p].append(n)
    seen = {0}
    todo = [0]
    while todo:
        for s in succs[todo.pop()]:
            if s not in seen:
                seen.add(s)
                todo.append(s)
    return frozenset(seen)


def build_graph(index: ModuleIndex, scope_node: ast.AST) -> FlowGraph:
    """The graph of one scope (module, class body, function, lambda) of an indexed module."""
    builder = _Builder(index, scope_node)
    builder.build()
    return builder.finish()
