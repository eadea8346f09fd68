"""Building the flow graph of one scope (flow/cfg.py says what it models): statements to
flow nodes in evaluation order, with the edges of branches, loops, `try`, `match` and the
jumps, from the scopes, bindings and parent links of the one-walk `ModuleIndex`."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from jaxlint.analysis.flow.cfg import Definition, DefKind, FlowGraph, FlowNode
from jaxlint.analysis.imports import Binding, ModuleIndex, Scope
from jaxlint.analysis.syntax import literal_truth, target_names
from jaxlint.analysis.trips import runs_at_least_once

__all__ = ["build_graph"]

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_TRY = tuple(t for t in (ast.Try, getattr(ast, "TryStar", None)) if t is not None)


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

    def _terminates(self, s: ast.stmt) -> bool:
        """`exit()`, `sys.exit(1)`, `os._exit(0)` as a statement: the process ends there
        (`exit`/`quit` only while the module does not rebind them)."""
        if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)):
            return False
        func = s.value.func
        if isinstance(func, ast.Name) and func.id in ("exit", "quit"):
            return self.index.lookup(func.id, self.index.scope_of(func)) is None
        return self.index.qualname(func) in _PROCESS_EXITS

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
            truth = literal_truth(s.test)
            self.current = [] if truth is False else [test]  # `if False:` never enters
            self.block(s.body)
            body = self.current
            self.current = [] if truth is True else [test]
            self.block(s.orelse)
            self.current = body + self.current
        elif isinstance(s, ast.While):
            self.loads(s.test, ev)
            head = self.node(s, ev)
            frame = self._loop_body(head, s.body)
            forever = literal_truth(s.test) is True  # `while True:`, `while 1:`
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
            if self._terminates(s):
                self.exits.extend(self.current)  # `exit()`: nothing after it runs
                self.current = []

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


# calls that end the process: the statements after one never run (v24 row, tuning material:
# UPIX tests/test_pmap.py:171-176, a timed region after an unconditional `exit()`, JAX602)
_PROCESS_EXITS = frozenset({"exit", "quit", "sys.exit", "os._exit", "os.abort"})


def build_graph(index: ModuleIndex, scope_node: ast.AST) -> FlowGraph:
    """The graph of one scope (module, class body, function, lambda) of an indexed module."""
    builder = _Builder(index, scope_node)
    builder.build()
    return builder.finish()
