"""The forward walker (analysis/flow/walker.py) with a toy lattice: which names may hold a
"tainted" value, where `name = other` copies taint, `name = T` taints and `name = 0` clears."""

from __future__ import annotations

import ast

from jaxlint.analysis.flow.walker import ForwardWalker
from tests.conftest import snippet


class SetLattice:
    def copy(self, state: set[str]) -> set[str]:
        return set(state)

    def join(self, a: set[str], b: set[str]) -> set[str]:
        return a | b

    def equal(self, a: set[str], b: set[str]) -> bool:
        return a == b


class Toy(ForwardWalker[set]):
    def __init__(self) -> None:
        super().__init__(SetLattice())
        self.seen: dict[str, bool] = {}  # `probe(x)` calls: was x tainted there?
        self.quiet: list[str] = []  # probes walked in infeasible code

    def transfer(self, node: ast.stmt, state: set) -> None:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            name, value = node.targets[0].id, node.value
            if isinstance(value, ast.Name) and value.id == "T":
                state.add(name)
            elif isinstance(value, ast.Name) and value.id in state:
                state.add(name)
            else:
                state.discard(name)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and node.value.args:
            arg = node.value.args[0]
            assert isinstance(arg, ast.Name)
            label = f"{node.lineno}:{arg.id}"
            if self.infeasible:
                self.quiet.append(label)
            self.seen[label] = arg.id in state

    def branch_test(self, test, state):  # noqa: ANN001, ANN201
        # `if eager:` is an arm that never runs in the analysed mode
        body_ok = not (isinstance(test, ast.Name) and test.id == "eager")
        return set(state), set(state), body_ok, True


def run(code: str) -> Toy:
    toy = Toy()
    toy.walk(ast.parse(snippet(code)).body, set())
    return toy


def test_if_joins_arms_and_drops_terminated_ones():
    toy = run(
        """
        if c:
            a = T
        else:
            b = T
        probe(a)
        probe(b)
        if c:
            d = T
            return
        probe(d)
        """
    )
    assert toy.seen == {"5:a": True, "6:b": True, "10:d": False}


def test_loop_reaches_a_fixed_point():
    # the taint needs three steps to reach `c`: two passes would miss it
    toy = run(
        """
        a = T
        for x in xs:
            probe(c)
            c = b
            b = a
        """
    )
    assert toy.seen["3:c"] is True


def test_break_goes_to_the_exit_and_continue_to_the_head():
    toy = run(
        """
        for x in xs:
            probe(k)
            if c:
                k = T
                continue
            k = 0
            if d:
                b = T
                break
            b = 0
        probe(b)
        """
    )
    assert toy.seen == {"2:k": True, "11:b": True}


def test_handlers_start_from_any_point_of_the_body():
    toy = run(
        """
        a = T
        try:
            a = 0
            f()
        except E:
            probe(a)
        """
    )
    assert toy.seen["6:a"] is True


def test_infeasible_arm_is_walked_quietly_and_dropped():
    toy = run(
        """
        if eager:
            a = T
            probe(a)
        probe(a)
        if eager:
            pass
        else:
            return
        probe(a)
        """
    )
    assert toy.seen == {"3:a": True, "4:a": False, "9:a": False}
    assert toy.quiet == ["3:a", "9:a"]  # after the second `if` only eager paths go on


def test_an_arm_a_literal_test_rules_out_is_walked_quietly_and_dropped():
    # for every client, whatever its branch_test says (v32 zd_policy: a walrus toggle)
    toy = run(
        """
        if (only := False):
            a = T
            probe(a)
        probe(a)
        if not 0:
            b = 0
        else:
            b = T
        probe(b)
        """
    )
    assert toy.seen == {"3:a": True, "4:a": False, "9:b": False}
    assert toy.quiet == ["3:a"]


class Ordered(ForwardWalker[dict]):
    """A lattice whose join prefers its first argument (key flow's: the consumption to cite),
    recording the loops around each probe and optionally skipping dead code."""

    class Lat:
        def copy(self, state: dict) -> dict:
            return dict(state)

        def join(self, a: dict, b: dict) -> dict:
            for k, v in b.items():
                a.setdefault(k, v)
            return a

        def equal(self, a: dict, b: dict) -> bool:
            return a == b

    def __init__(self, walk_dead_code: bool = True) -> None:
        super().__init__(self.Lat())
        self.walk_dead_code = walk_dead_code
        self.seen: dict[int, object] = {}
        self.loops: dict[int, list[int]] = {}

    def transfer(self, node: ast.stmt, state: dict) -> None:
        if isinstance(node, ast.Assign):
            state[node.targets[0].id] = node.lineno  # type: ignore[attr-defined]
        elif isinstance(node, ast.Expr):
            self.seen[node.lineno] = state.get("a")
            self.loops[node.lineno] = [loop.lineno for loop in self.loop_nodes]


def test_dead_code_is_skipped_on_request_and_loops_are_exposed():
    code = """
        for x in xs:
            while c:
                probe()
                break
                probe()
        probe()
        try:
            return
        except E:
            raise
        probe()
        """
    walked = Ordered()
    walked.walk(ast.parse(snippet(code)).body, {})
    assert walked.loops == {3: [1, 2], 5: [1, 2], 6: [], 11: []}
    skipped = Ordered(walk_dead_code=False)
    skipped.walk(ast.parse(snippet(code)).body, {})
    assert skipped.loops == {3: [1, 2], 6: []}  # nothing after `break` or the closed `try`


def test_a_handler_starts_from_the_later_state_first():
    # the join keeps its first argument's value: the handler sees the body's binding
    walked = Ordered()
    walked.walk(
        ast.parse(
            snippet(
                """
                a = 1
                try:
                    a = 2
                except E:
                    probe()
                """
            )
        ).body,
        {},
    )
    assert walked.seen == {5: 3}


class Stepping(Toy):
    """A client that proves `for _ in range(3)` takes a step (the key flow's knob)."""

    def runs_at_least_once(self, node: ast.For | ast.AsyncFor) -> bool:
        return isinstance(node.iter, ast.Call) and bool(node.iter.args)


def test_a_loop_proven_to_step_drops_the_path_that_skips_it():
    code = """
        a = T
        for _ in range(3):
            a = 0
        probe(a)
        b = T
        for _ in range(3):
            if c:
                continue
            b = 0
        probe(b)
        d = T
        for _ in xs:
            d = 0
        probe(d)
        """
    plain = run(code)
    assert plain.seen == {"4:a": True, "10:b": True, "14:d": True}
    stepping = Stepping()
    stepping.walk(ast.parse(snippet(code)).body, set())
    # a `continue` ends a step too: `b` may still be tainted; `xs` may be empty
    assert stepping.seen == {"4:a": False, "10:b": True, "14:d": True}
