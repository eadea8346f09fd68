"""Forward dataflow over a function's statements, written once.

Every flow-sensitive fact (traced values, key consumption, later reaching bindings) is a
lattice of states carried through the statements in execution order; this module owns the
control flow: it copies the state into both arms of an `if`, joins the arms that go on,
runs loops to a fixed point, routes `break`/`continue` to the loop's exit/head, starts
`except` handlers from every state the `try` body may stop in, and knows which statements
end a path (ty's use-def builder: snapshot, restore, merge; the analyses only say what one
statement or expression does).

A client subclasses `ForwardWalker` and fills in the transfer hooks. A branch the client
proves infeasible (for the taint analysis: it only runs on concrete values, so never under
tracing) is still walked, with `infeasible` raised, so the client can record its expressions
as not traced; its end state is dropped, and when no feasible branch goes on, the rest of the
block is walked the same way.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from jaxlint.analysis.syntax import literal_truth

S = TypeVar("S")

WITHS = (ast.With, ast.AsyncWith)
TRY_NODES = tuple(t for t in (ast.Try, getattr(ast, "TryStar", None)) if t is not None)


class Lattice(Protocol[S]):
    """What a dataflow state must support: copies for the arms of a branch, a join where
    paths meet, and equality to detect a loop's fixed point."""

    def copy(self, state: S) -> S: ...

    def join(self, a: S, b: S) -> S: ...

    def equal(self, a: S, b: S) -> bool: ...


# the statements `ForwardWalker.stmt` does more with than `transfer`, and those that end a path
_COMPOUND = frozenset(
    (
        ast.If,
        ast.For,
        ast.AsyncFor,
        ast.While,
        *WITHS,
        *TRY_NODES,
        ast.Match,
        ast.Break,
        ast.Continue,
    )
)
_ENDS = frozenset((ast.Return, ast.Raise))


@dataclass
class Flow(Generic[S]):
    """A state and whether some path reaches it (False after return/raise/break/continue;
    the statements after them are still walked with the last state, for the record)."""

    state: S
    live: bool = True


@dataclass
class _LoopFrame(Generic[S]):
    breaks: list[S] = field(default_factory=list)
    continues: list[S] = field(default_factory=list)


class ForwardWalker(Generic[S]):
    """Walks statements forward; subclasses implement the hooks below."""

    max_loop_passes = 4  # the lattices are shallow; a few passes reach the fixed point
    # False: stop walking a block after a statement that ends every path through it (the
    # statements after `return`/`break`/... are dead; a client that reports events, like key
    # consumption, must not report them there). True: walk them with the last state.
    walk_dead_code = True

    def __init__(self, lattice: Lattice[S]) -> None:
        self.lattice = lattice
        self.infeasible = 0  # > 0 while walking code that cannot run in the analysed mode
        self._loops: list[_LoopFrame[S]] = []
        self._loop_nodes: tuple[ast.AST, ...] = ()
        self._rest_infeasible = False

    @property
    def loop_nodes(self) -> tuple[ast.AST, ...]:
        """The statement loops (`for`/`while`) around the code being walked, outermost
        first; a `while` test and a `for` target are walked inside their own loop."""
        return self._loop_nodes

    # -- hooks (override) ------------------------------------------------------------------
    def transfer(self, node: ast.stmt, state: S) -> None:
        """A simple statement (or the expressions of a `return`/`raise`): update `state`."""

    def branch_test(self, test: ast.expr, state: S) -> tuple[S, S, bool, bool]:
        """Evaluate an `if` test; returns the states entering (body, else) and whether each
        arm is feasible."""
        self.loop_test(test, state)
        return self.lattice.copy(state), self.lattice.copy(state), True, True

    def loop_test(self, test: ast.expr, state: S) -> None:
        """Evaluate a `while` test (or any expression whose value is not kept)."""

    def for_iter(self, node: ast.For | ast.AsyncFor, state: S) -> None:
        """Evaluate a `for` loop's iterable (once, before the loop)."""

    def for_target(self, node: ast.For | ast.AsyncFor, state: S) -> None:
        """Bind a `for` loop's target at the start of each step."""

    def with_items(self, node: ast.With | ast.AsyncWith, state: S) -> None:
        """Evaluate the context managers and bind their `as` targets."""

    def runs_at_least_once(self, node: ast.For | ast.AsyncFor) -> bool:
        """The client proves the loop takes at least one step (`range(EPOCHS)` with a
        positive module constant), so the path that skips the body cannot leave it. Off by
        default: only a client for which a removed path is sound turns it on."""
        return False

    def try_body(self, node: ast.AST, entering: bool) -> None:
        """Called before (entering=True) and after walking a `try` body."""

    def handler(self, handler: ast.ExceptHandler, state: S) -> None:
        """Evaluate an `except` clause's type and bind its name."""

    def match_subject(self, node: ast.Match, state: S) -> None:
        """Evaluate a `match` subject."""

    def case_guard(self, case: ast.match_case, state: S) -> None:
        """Bind a case's pattern names and evaluate its guard."""

    # -- walking ---------------------------------------------------------------------------
    def walk(self, stmts: list[ast.stmt], state: S) -> Flow[S]:
        """Walk a function body from `state`; returns the state at its end."""
        self._loops = []
        self._loop_nodes = ()
        self._rest_infeasible = False
        return self.block(stmts, Flow(state))

    def block(self, stmts: list[ast.stmt], flow: Flow[S]) -> Flow[S]:
        for i, stmt in enumerate(stmts):
            flow = self.stmt(stmt, flow)
            if not flow.live and not self.walk_dead_code:
                self._rest_infeasible = False
                return flow
            if self._rest_infeasible:
                # no feasible path goes on after this statement: the rest cannot run
                self._rest_infeasible = False
                self.infeasible += 1
                for rest in stmts[i + 1 :]:
                    flow = self.stmt(rest, flow)
                self.infeasible -= 1
                return Flow(flow.state, False)
        return flow

    def stmt(self, node: ast.stmt, flow: Flow[S]) -> Flow[S]:  # noqa: C901
        cls = type(node)  # exact classes: the parser makes no subclasses
        if cls not in _COMPOUND:  # most statements: one test instead of eight
            self.transfer(node, flow.state)
            return Flow(flow.state, False) if cls in _ENDS else flow
        lat = self.lattice
        if isinstance(node, ast.If):
            return self._if(node, flow)
        if isinstance(node, (ast.For, ast.AsyncFor)):
            self.for_iter(node, flow.state)
            return self._loop(node, flow)
        if isinstance(node, ast.While):
            return self._loop(node, flow)
        if isinstance(node, WITHS):
            self.with_items(node, flow.state)
            return self.block(node.body, flow)
        if isinstance(node, TRY_NODES):
            return self._try(node, flow)
        if isinstance(node, ast.Match):
            self.match_subject(node, flow.state)
            outs = [flow]
            for case in node.cases:
                arm = Flow(lat.copy(flow.state), flow.live)
                self.case_guard(case, arm.state)
                outs.append(self.block(case.body, arm))
            return self._join(outs, flow)
        if isinstance(node, (ast.Break, ast.Continue)):
            if self._loops and flow.live and not self.infeasible:
                frame = self._loops[-1]
                target = frame.breaks if isinstance(node, ast.Break) else frame.continues
                target.append(lat.copy(flow.state))
            return Flow(flow.state, False)
        self.transfer(node, flow.state)
        if isinstance(node, (ast.Return, ast.Raise)):
            return Flow(flow.state, False)
        return flow

    def _branch(self, stmts: list[ast.stmt], flow: Flow[S], feasible: bool) -> Flow[S]:
        self.infeasible += not feasible
        out = self.block(stmts, flow)
        self.infeasible -= not feasible
        return out

    def _if(self, node: ast.If, flow: Flow[S]) -> Flow[S]:
        body_in, else_in, body_ok, else_ok = self.branch_test(node.test, flow.state)
        truth = literal_truth(node.test)  # `if False:`: that arm never runs, for every client
        body_ok, else_ok = body_ok and truth is not False, else_ok and truth is not True
        body = self._branch(node.body, Flow(body_in, flow.live), body_ok)
        orelse = self._branch(node.orelse, Flow(else_in, flow.live), else_ok)
        live = [f for f, ok in ((body, body_ok), (orelse, else_ok)) if ok and f.live]
        if live:
            return self._join(live, flow)
        if not (body_ok and else_ok) and flow.live:
            self._rest_infeasible = True
        return Flow(flow.state, False)

    def _loop(self, node: ast.For | ast.AsyncFor | ast.While, flow: Flow[S]) -> Flow[S]:
        lat = self.lattice
        head = flow.state
        frame: _LoopFrame[S] = _LoopFrame()
        # where a loop proven to take a step leaves normally: the end of some step (its
        # body's end or a `continue`), never the state before the first step
        ends: S | None = None
        for step in range(self.max_loop_passes):
            frame = _LoopFrame()
            self._loops.append(frame)
            self._loop_nodes = (*self._loop_nodes, node)
            if isinstance(node, ast.While):
                self.loop_test(node.test, head)
            else:
                self.for_target(node, head)
            out = self.block(node.body, Flow(lat.copy(head), flow.live))
            self._loops.pop()
            self._loop_nodes = self._loop_nodes[:-1]
            new_head = lat.copy(head)
            for s in [out.state, *frame.continues, *frame.breaks]:
                new_head = lat.join(new_head, s)
            stepped = [out.state] if out.live else []
            stepped += frame.continues
            ends = None
            for s in stepped:
                ends = lat.copy(s) if ends is None else lat.join(ends, s)
            if lat.equal(new_head, head) and step > 0:
                break
            head = new_head
        exit_state = head
        if (
            ends is not None
            and isinstance(node, (ast.For, ast.AsyncFor))
            and self.runs_at_least_once(node)
        ):
            exit_state = ends
        after = self.block(node.orelse, Flow(exit_state, flow.live))
        exits = [after, *(Flow(s) for s in frame.breaks)]
        return self._join(exits, flow)

    def _try(self, node: ast.AST, flow: Flow[S]) -> Flow[S]:
        lat = self.lattice
        self.try_body(node, True)
        body = self.block(node.body, Flow(lat.copy(flow.state), flow.live))  # type: ignore[attr-defined]
        self.try_body(node, False)
        # a handler may start anywhere in the body: from the state before or after it (the
        # later state first, for a client whose join prefers its first argument)
        start = lat.join(lat.copy(body.state), flow.state)
        outs = []
        for h in node.handlers:  # type: ignore[attr-defined]
            arm = Flow(lat.copy(start), flow.live)
            self.handler(h, arm.state)
            outs.append(self.block(h.body, arm))
        outs.insert(0, self.block(node.orelse, body))  # type: ignore[attr-defined]
        joined = self._join(outs, flow)
        final = getattr(node, "finalbody", [])
        if not final:
            return joined
        end = self.block(final, Flow(joined.state, flow.live))
        return Flow(end.state, joined.live and end.live)

    def _join(self, flows: list[Flow[S]], before: Flow[S]) -> Flow[S]:
        """Join the flows that go on; with none, the path ends (the last state is kept)."""
        lat = self.lattice
        live = [f for f in flows if f.live]
        if not live:
            return Flow(flows[-1].state if flows else before.state, False)
        state = lat.copy(live[0].state)
        for f in live[1:]:
            state = lat.join(state, f.state)
        return Flow(state)
