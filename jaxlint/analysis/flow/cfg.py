"""The flow graph of one scope: flow nodes, edges, and reaching definitions over them
(built by flow/cfg_build.py).

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
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from jaxlint.analysis.imports import Binding

__all__ = ["DefKind", "Definition", "FlowGraph", "FlowNode"]


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

    def may_run_after(
        self, first: ast.AST, then: ast.AST, avoiding: tuple[ast.AST, ...] = ()
    ) -> bool:
        """Some path runs statement `then` after (a step of) statement `first`: in a later
        step of a loop, too. Dead edges are no paths; nor are paths through a statement of
        `avoiding` (statements of this graph)."""
        a, b = self.spans.get(first), self.spans.get(then)
        if a is None or b is None:
            return False
        target = b[0]
        seen: set[int] = set()
        for stmt in avoiding:
            span = self.spans.get(stmt)
            if span is not None:
                seen.update(range(*span))
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

    def reads_after(self, use: ast.Name) -> list[ast.Name | Definition]:
        """The reads of the value the load `use` sees that may run after it: loads of the name
        that some path from `use` reaches with no binding of the name in between (in a later
        step of a loop too, `use` itself included), and the `x += ...` that read it (their
        AUGMENT definitions). "Is this array read again after it was donated" in one question.
        Loads later in `use`'s own step are left out: their order against the call that takes
        `use` is not modelled (`f(x, x.shape)` reads before the call runs). Dead edges are no
        paths. Empty when the load is not in this scope or the name is not tracked here."""
        n = self._use_node.get(use)
        name = use.id
        if n is None or name not in self.tracked or use in self._local:
            return []
        found: list[ast.Name | Definition] = []
        events = self.nodes[n].events
        after = events[events.index(use) + 1 :]
        if any(isinstance(e, Definition) and e.name == name and e.certain for e in after):
            return []  # `x = f(x)`: rebound in its own step
        seen: set[int] = set()
        todo = list(self._succs[n])
        while todo:
            m = todo.pop()
            if m in seen:
                continue
            seen.add(m)
            killed = False
            for e in self.nodes[m].events:
                if isinstance(e, Definition):
                    if e.name != name:
                        continue
                    if e.kind is DefKind.AUGMENT:
                        found.append(e)
                    if e.certain:
                        killed = True
                        break
                elif e.id == name and e not in self._local:
                    found.append(e)
            if not killed:
                todo.extend(self._succs[m])
        return found

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
