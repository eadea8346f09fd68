"""Program order, written once: a control-flow graph per scope, with a use-def map.

pyright's binder and ty's use-def map, for the questions the analyses ask about program
order: which bindings of a name may reach this load, is the name bound on every path to this
statement, may this statement run after that one, may a load in a loop run before the
statement that binds it. One graph per scope, built on the first question about it from the
one-walk `ModuleIndex` (`flow/cfg.py` says what the graph models); a file that never asks
pays nothing. `ModuleFacts.flow` and `flow_graphs(index)` give the same object.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from jaxlint.analysis.flow.cfg import (
    Definition,
    DefKind,
    FlowGraph,
    FlowNode,
)
from jaxlint.analysis.flow.cfg_build import build_graph
from jaxlint.analysis.imports import Binding, ModuleIndex
from jaxlint.analysis.syntax import ancestors, parent, statement_of

__all__ = [
    "DefKind",
    "Definition",
    "FlowGraph",
    "FlowGraphs",
    "FlowNode",
    "flow_graphs",
]


class FlowGraphs:
    """The graphs of a module's scopes, each built on the first question about it."""

    def __init__(self, index: ModuleIndex) -> None:
        self.index = index
        self._graphs: dict[ast.AST, FlowGraph] = {}

    def graph(self, scope_node: ast.AST) -> FlowGraph:
        g = self._graphs.get(scope_node)
        if g is None:
            g = self._graphs[scope_node] = build_graph(self.index, scope_node)
        return g

    def owner(self, node: ast.AST) -> ast.AST:
        """The scope whose graph holds `node`: decorators, defaults and base classes run
        in the scope around their def (the index files them under the def's own scope)."""
        child: ast.AST = node
        cur: ast.AST | None = getattr(node, "jl_parent", None)
        while cur is not None:
            if cur in self.index.scopes:
                if isinstance(cur, ast.Lambda):
                    if child is cur.body:
                        return cur
                elif isinstance(cur, ast.Module) or isinstance(child, ast.stmt):
                    return cur  # a def's or class's only statements are its body
            child, cur = cur, getattr(cur, "jl_parent", None)
        return self.index.tree

    def unreachable(self, node: ast.AST) -> bool:
        """No path from its scope's entry reaches `node`'s statement (after a `return`,
        `raise`, `exit()`, ... of the same block), or the `def` or `class` statement of an
        enclosing scope: it never runs."""
        scope = self.owner(node)
        target = node
        for _ in range(8):
            graph = self.graph(scope)
            stmt = _statement_in(target, scope)
            span = graph.spans.get(stmt) if stmt is not None else None
            if span is not None and span[0] < span[1] and span[0] not in graph.reachable:
                return True
            if scope is self.index.tree:
                return False
            target, scope = scope, self.owner(scope)
        return False

    def reaching(self, use: ast.Name) -> frozenset[Definition] | None:
        """The definitions that may reach a load, in its own scope; None when unknown."""
        return self.graph(self.owner(use)).reaching(use)

    def reaching_binding(self, use: ast.Name) -> Binding | None:
        """The one binding that certainly reaches a load (a parameter, an assignment, ...):
        no other binding, no unbound path. A name of an enclosing scope is answered at the
        statement that defines the scope of the load. None when there is no such binding."""
        scope_node = self.owner(use)
        graph = self.graph(scope_node)
        if use.id in graph.tracked:
            defs = graph.reaching(use)
        else:
            defs = self._outer(use.id, scope_node)
        if not defs or len(defs) != 1:
            return None
        (d,) = defs
        if d.kind is not DefKind.PARAM and d.kind is not DefKind.BIND:
            return None
        return d.binding

    def certain_binding(self, use: ast.Name, found: Sequence[Binding]) -> Binding | None:
        """The binding of `found` (the index's bindings of `use.id` where the name is looked
        up) that certainly reaches the load `use`, None when none does or it is unknown.

        One binding is answered on the tree: it reaches for certain when it is a parameter,
        or when its statement comes before the use's in a block that encloses the use, with
        no back edge of a loop around the use (a structural dominance test; a graph per
        function that values.py asks about cost 12-40% of a cold run on flax, for 623 graphs
        and 1,428 questions, most about names bound once). Several bindings are answered by
        the use-def map (`reaching_binding`)."""
        if len(found) != 1:
            b = self.reaching_binding(use)
            return b if b is not None and any(b is f for f in found) else None
        return _dominating(use, found[0])

    def reaching_bindings(self, use: ast.Name, found: Sequence[Binding]) -> list[Binding] | None:
        """The bindings of `found` (the index's bindings of `use.id` where the name is looked
        up) whose value may reach the load `use`: the use-def map's answer, not every binding
        of the scope (a chain of `if flag: cfg = cfg._replace(...)` reaches each load by two,
        not by all twenty-five). None when the map does not know (a binding it records
        without the index's)."""
        defs = self._defs_of(use)
        if not defs:
            return None
        out: list[Binding] = []
        for d in defs:
            if d.kind is DefKind.UNBOUND or d.kind is DefKind.DELETE:
                continue
            b = d.binding
            if b is None or not any(b is f for f in found):
                return None
            if not any(b is o for o in out):
                out.append(b)
        return out or None

    def _defs_of(self, use: ast.Name) -> frozenset[Definition] | None:
        scope_node = self.owner(use)
        graph = self.graph(scope_node)
        if use.id in graph.tracked:
            return graph.reaching(use)
        return self._outer(use.id, scope_node)

    def reached_by(self, use: ast.Name, node: ast.AST) -> bool:
        """The value bound at `node` may reach the load `use` (also a load in a nested scope,
        answered where that scope is defined); False when unknown."""
        return any(d.node is node and d.binds for d in self._defs_of(use) or ())

    def reached_only_by(self, use: ast.Name, node: ast.AST) -> bool:
        """On every path the load `use` sees the value bound at `node` and no other; False
        when unknown."""
        defs = self._defs_of(use)
        return bool(defs) and all(d.node is node and d.binds for d in defs or ())

    def binding_read(self, name: str, node: ast.AST) -> bool:
        """Some load of `name` (in the scope of `node`, or in a scope nested in it) may see
        the value bound at `node`: the def-use side of the map. Unknown (the name is not
        tracked) counts as read."""
        scope_node = self.owner(node)
        if name not in self.graph(scope_node).tracked:
            return True
        return any(
            isinstance(n, ast.Name)
            and n.id == name
            and isinstance(n.ctx, ast.Load)
            and self.reached_by(n, node)
            for n in ast.walk(scope_node)
        )

    def _outer(self, name: str, scope_node: ast.AST) -> frozenset[Definition] | None:
        """What reaches the definition of `scope_node` in the enclosing scope that binds
        `name` (class bodies are skipped, as in name lookup)."""
        scopes = self.index.scopes
        inner = scopes[scope_node]
        if name in inner.globals or name in inner.bindings:
            return None  # global/nonlocal, or written from elsewhere: unknown
        node = scope_node
        outer = inner.parent
        while outer is not None:
            holder = self.owner(node)
            if outer.kind != "class" and (name in outer.bindings or name in outer.globals):
                if name in outer.globals:
                    return None
                graph = self.graph(outer.node)
                if holder is not outer.node:
                    return None
                stmt = _statement_in(node, outer.node)
                return graph.reaching_at(name, stmt) if stmt is not None else None
            node = outer.node
            outer = outer.parent
        return None

    def reads_after(self, use: ast.Name) -> list[ast.Name | Definition]:
        """The loads (and `x += ...` definitions) that may read the value `use` sees after it
        (`FlowGraph.reads_after`), in `use`'s own scope."""
        return self.graph(self.owner(use)).reads_after(use)

    def bound_at(self, name: str, where: ast.stmt) -> bool:
        """`name` holds a value of `where`'s own scope on every path to `where`."""
        return self.graph(self.owner(where)).bound_at(name, where)

    def may_run_after(self, first: ast.stmt, then: ast.stmt) -> bool:
        """Some path runs `then` after `first` (statements of one scope)."""
        graph = self.graph(self.owner(then))
        return graph.may_run_after(first, then)

    def runs_before(self, first: ast.AST, then: ast.AST) -> bool:
        """`first`'s statement certainly runs before `then`'s: it precedes it in a block that
        encloses `then` (not a branch or loop `then` is outside of, not later in a loop
        holding it). Structural, as `certain_binding`'s one-binding case."""
        a, b = statement_of(first), statement_of(then)
        return a is not None and b is not None and _precedes(a, b)

    def may_run_first(self, first: ast.AST, then: ast.AST) -> bool:
        """`first` (any node) may run before `then` (any node of the same scope) runs for the
        first time: its statement does on some path from the entry, or, in one statement, it
        comes first in evaluation order (left to right). True when unknown (a node outside
        the scope of `then`): callers use it to stay silent."""
        scope = self.owner(then)
        a, b = _statement_in(first, scope), _statement_in(then, scope)
        if a is None or b is None:
            return True
        if a is b:
            return (first.lineno, first.col_offset) < (then.lineno, then.col_offset)  # type: ignore[attr-defined]
        return self.graph(scope).may_run_before_first(a, b)

    def statement_in(self, node: ast.AST, scope_node: ast.AST | None = None) -> ast.AST | None:
        """The statement of `scope_node`'s graph (the module's by default) that holds `node`:
        the statement itself, the one around an expression, or the `def`, `class` or lambda
        statement around a node of a nested scope. None when `node` is outside that scope."""
        return _statement_in(node, self.index.tree if scope_node is None else scope_node)

    def runs_between(
        self,
        stmt: ast.AST,
        before: list[ast.AST],
        after: list[ast.AST],
        avoiding: tuple[ast.AST, ...] = (),
    ) -> bool:
        """Some statement of `before` may run ahead of `stmt` and some statement of `after`
        may run once `stmt` has (statements of one scope; a statement that is `stmt` itself
        counts as ahead, since an expression is evaluated before its statement stores: `x =
        f(x)`), each on a path through no statement of `avoiding`. "Was this traced before the
        rebinding, and run again after it (with no new function made in between: neither
        before the rebinding, `f = jax.jit(jax.vmap(g))` at the top of a loop step that then
        changes the global and calls `f`, nor after it)" in one question."""
        graph = self.graph(self.owner(stmt))
        ahead = any(b is stmt or graph.may_run_after(b, stmt, avoiding) for b in before)
        return ahead and any(graph.may_run_after(stmt, a, avoiding) for a in after)

    def read_before(self, region: ast.AST, name: str, stmt: ast.stmt) -> bool:
        """A load of `name` inside `region` (a loop holding `stmt`) may see a value other than
        the one `stmt` binds: it may run before `stmt` in a step (or with `stmt` skipped). A
        load inside a nested function counts at the statement that defines it; unknown (the
        name is not tracked) counts as read."""
        scope_node = self.owner(stmt)
        graph = self.graph(scope_node)
        if name not in graph.tracked:
            return True
        for node in ast.walk(region):
            if not (isinstance(node, ast.Name) and node.id == name):
                continue
            if not isinstance(node.ctx, ast.Load):
                continue
            if self.owner(node) is scope_node:
                defs = graph.reaching(node)
            else:
                at = _statement_in(node, scope_node)
                defs = graph.reaching_at(name, at) if at is not None else None
            if defs is None or any(d.node is not stmt for d in defs):
                return True
        return False


def _statement_in(node: ast.AST, scope_node: ast.AST) -> ast.AST | None:
    """The innermost statement of `scope_node`'s own graph that holds `node` (a `def`,
    `class` or the statement around a lambda, for a node inside a nested scope)."""
    chain: list[ast.AST] = []
    cur: ast.AST | None = node
    while cur is not None and cur is not scope_node:
        chain.append(cur)
        cur = getattr(cur, "jl_parent", None)
    if cur is None:
        return None
    found: ast.AST | None = None
    for n in reversed(chain):  # from the scope down
        if isinstance(n, ast.stmt):
            found = n
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            break  # a nested scope: its statements are in its own graph
    return found


def _pos(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _dominating(use: ast.Name, b: Binding) -> Binding | None:
    """`b`, the one binding of the name, when it certainly runs before the load `use`: a
    parameter; or a binding whose statement precedes the use's statement in a block that
    encloses the use (not a branch or loop the use is outside of, not `x += 1`), and that is
    not later in a loop holding the use (where the first step would see it unbound)."""
    if b.kind == "param":
        return b  # bound when the function starts: before every statement
    use_stmt = statement_of(use)
    if use_stmt is None or b.node is None:
        return None
    stmt = b.node if isinstance(b.node, ast.stmt) else statement_of(b.node)
    if stmt is None or isinstance(stmt, ast.AugAssign):
        return None
    return b if _precedes(stmt, use_stmt) else None


def _precedes(stmt: ast.AST, use_stmt: ast.AST) -> bool:
    """`stmt` comes before `use_stmt` in a body list holding `use_stmt` or one of its
    ancestors: it runs first on every path that reaches `use_stmt`."""
    if stmt is use_stmt or not _pos(stmt) < _pos(use_stmt):
        return False  # later, or in a loop holding the use: not run on the first step
    use_ancestors = set(map(id, ancestors(use_stmt)))
    holder = parent(stmt)
    if holder is None or id(holder) not in use_ancestors:
        return False  # in a branch or loop that the use is not part of
    # the same body list as an ancestor of the use (not `orelse`)
    for name in ("body", "orelse", "finalbody", "handlers"):
        stmts = getattr(holder, name, None)
        if isinstance(stmts, list) and stmt in stmts:
            return any(s is use_stmt or id(s) in use_ancestors for s in stmts)
    return False


def flow_graphs(index: ModuleIndex) -> FlowGraphs:
    """The module's graphs, kept with its index (every analysis built on the index shares
    them)."""
    graphs = index.flow_graphs
    if not isinstance(graphs, FlowGraphs):
        graphs = index.flow_graphs = FlowGraphs(index)
    return graphs
