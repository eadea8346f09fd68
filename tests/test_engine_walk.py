"""The engine's single traversal (`engine.run_rules`): the order rules see nodes in, the
enclosing-function state, and what happens when a rule raises. The walk is the hot loop of a
cold run and is written for speed, so its contract is pinned here against a plain recursive
walk over `ast.iter_child_nodes`."""

from __future__ import annotations

import ast

from jaxlint.analysis.imports import in_order
from jaxlint.core.config import Settings
from jaxlint.core.source import SourceText
from jaxlint.engine import run_rules
from jaxlint.rules import Rule

CODE = """\
import jax

x = [a + 1 for a in range(3)]

@jax.jit
def f(y, *, z=lambda q: q * 2):
    def g(w):
        return -w if w else not w
    return g(y)[0] < y.attr

class C:
    def m(self):
        del self.v
"""


def _run(*rules: type[Rule], text: str = CODE) -> list:
    tree = ast.parse(text)
    return run_rules(tree, SourceText(text), "t.py", rules, Settings())


def _expected_events(tree: ast.AST) -> list[tuple[str, str]]:
    events: list[tuple[str, str]] = []

    def walk(node: ast.AST) -> None:
        events.append(("visit", type(node).__name__))
        for child in ast.iter_child_nodes(node):
            walk(child)
        events.append(("leave", type(node).__name__))

    walk(tree)
    return events


def _recorder(names: list[str], events: list) -> type[Rule]:
    def visit(kind: str, name: str):
        def method(self, node, ctx):  # noqa: ANN001, ANN202
            events.append((kind, name))

        return method

    body: dict[str, object] = {"code": "TST001", "name": "recorder"}
    for name in names:
        body[f"visit_{name}"] = visit("visit", name)
        body[f"leave_{name}"] = visit("leave", name)
    return type("Recorder", (Rule,), body)


def test_every_node_in_preorder_with_leave_after_its_subtree():
    tree = ast.parse(CODE)
    expected = _expected_events(tree)
    names = sorted({name for _, name in expected})
    events: list = []
    _run(_recorder(names, events))
    assert events == expected  # Load/Store/Add/Not/Lt included: a rule visits them


def test_operator_singletons_are_skipped_only_when_no_rule_visits_them():
    tree = ast.parse(CODE)
    singletons = {"Load", "Store", "Del", "Add", "USub", "Not", "Lt", "Mult"}
    expected = [e for e in _expected_events(tree) if e[1] not in singletons]
    names = sorted({name for _, name in expected})
    events: list = []
    _run(_recorder(names, events))
    assert events == expected


def test_enclosing_function_state():
    seen: list[tuple[str, str | None, int]] = []

    class Where(Rule):
        code = "TST002"

        def visit_Name(self, node, ctx):  # noqa: ANN001, ANN202
            fn = ctx.function_node
            name = None if fn is None else getattr(fn, "name", "<lambda>")
            seen.append((node.id, name, len(ctx.functions)))

    _run(Where)
    assert ("jax", "f", 1) in seen  # the decorator: a child of the def, walked inside it
    assert ("q", "<lambda>", 2) in seen  # the default's lambda, inside f
    assert ("w", "g", 2) in seen
    assert ("g", "f", 1) in seen
    assert ("range", None, 0) in seen


def test_a_rule_that_raises_is_reported_once_and_the_others_still_run():
    names: list[str] = []
    finished: list[str] = []

    class Boom(Rule):
        code = "TST003"
        name = "boom"

        def visit_Name(self, node, ctx):  # noqa: ANN001, ANN202
            if node.id == "range":
                raise ValueError("bad name")

        def leave_FunctionDef(self, node, ctx):  # noqa: ANN001, ANN202
            raise AssertionError("a broken rule gets no more calls")

        def finish(self) -> None:
            finished.append(self.code)

    class After(Rule):  # after Boom in the same handler list
        code = "TST004"

        def visit_Name(self, node, ctx):  # noqa: ANN001, ANN202
            names.append(node.id)

        def finish(self) -> None:
            finished.append(self.code)

    diags = _run(Boom, After)
    errors = [d for d in diags if d.code == "JAX000"]
    assert len(errors) == 1
    assert "internal error in rule TST003 (boom): ValueError: bad name" in errors[0].message
    assert errors[0].span.start.line == 3
    assert "range" in names and "w" in names  # the failing node itself, and everything after
    assert finished == ["TST004"]


def test_two_rules_that_raise_on_the_same_node():
    class One(Rule):
        code = "TST005"

        def visit_Call(self, node, ctx):  # noqa: ANN001, ANN202
            raise KeyError("one")

    class Two(Rule):
        code = "TST006"

        def visit_Call(self, node, ctx):  # noqa: ANN001, ANN202
            raise KeyError("two")

    diags = _run(One, Two)
    assert [d.message.split(":")[0] for d in diags] == [
        "internal error in rule TST005 ()",
        "internal error in rule TST006 ()",
    ]


def test_a_rule_drops_the_visits_it_no_longer_needs_after_the_module() -> None:
    """`Rule.unneeded_visits`, asked once after the `Module` node's visits: the visits it
    names stop for the rest of the module, the rule's other visits and the other rules' go
    on (the rename rules drop `visit_Name` when no imported name leads to an entry)."""
    seen: list[str] = []

    class Drops(Rule):
        code, name = "TST001", "drops"

        def visit_Module(self, node, ctx) -> None:  # noqa: ANN001
            seen.append("Module")

        def visit_Name(self, node, ctx) -> None:  # noqa: ANN001
            seen.append("Name")

        def visit_Call(self, node, ctx) -> None:  # noqa: ANN001
            seen.append("Call")

        def unneeded_visits(self) -> frozenset[str]:
            return frozenset({"Name"})

    class Keeps(Rule):
        code, name = "TST002", "keeps"

        def visit_Name(self, node, ctx) -> None:  # noqa: ANN001
            seen.append("kept Name")

    assert _run(Drops, Keeps, text="f(x)\n") == []
    assert seen == ["Module", "Call", "kept Name", "kept Name"]


def test_the_module_index_order_replays_the_walk() -> None:
    """Without leave handlers or visits of leaves (`Constant`, the singletons) the engine
    dispatches from the module index's list (`ModuleIndex.order`, `_Walk.run_ordered`): the
    same nodes in the same order, each with the enclosing functions the walk would have
    entered. A rule that visits a leaf gets the tree walk (the tests above)."""
    text = CODE + "h = lambda: [lambda v: v for _ in ()]\n@d(lambda: 0)\nclass D(B):\n    k = 1\n"
    tree = ast.parse(text)
    expected: list[tuple[str, tuple[str, ...]]] = []

    def walk(node: ast.AST, chain: tuple[str, ...]) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            chain = (*chain, getattr(node, "name", "<lambda>"))
        if in_order(type(node).__name__):
            expected.append((type(node).__name__, chain))
        for child in ast.iter_child_nodes(node):
            walk(child, chain)

    walk(tree, ())
    seen: list[tuple[str, tuple[str, ...]]] = []

    def visit(self, node, ctx) -> None:  # noqa: ANN001
        assert ctx.function_node is (ctx.functions[-1] if ctx.functions else None)
        seen.append(
            (type(node).__name__, tuple(getattr(f, "name", "<lambda>") for f in ctx.functions))
        )

    names = sorted({name for name, _ in expected})
    rule = type("Replay", (Rule,), {"code": "TST001", **{f"visit_{n}": visit for n in names}})
    _run(rule, text=text)
    assert seen == expected


def test_attribute_and_callee_filters() -> None:
    """`Rule.attribute_filter` and `Rule.callee_filter`: a filtered `visit_Attribute` or
    `visit_Call` gets only the nodes whose `attr` or callee (qualified name) its filter names,
    in the same order among the other rules' visits; the unfiltered rules get every node."""
    seen: list[tuple[str, str]] = []

    class Filtered(Rule):
        code, name = "TST001", "filtered"

        def attribute_filter(self) -> frozenset[str]:
            return frozenset({"sum"})

        def callee_filter(self) -> frozenset[str]:
            return frozenset({"jax.numpy.sum", "print"})

        def visit_Attribute(self, node, ctx) -> None:  # noqa: ANN001
            seen.append(("filtered", node.attr))

        def visit_Call(self, node, ctx) -> None:  # noqa: ANN001
            seen.append(("filtered", ctx.text(node.func)))

    class Plain(Rule):
        code, name = "TST002", "plain"

        def visit_Attribute(self, node, ctx) -> None:  # noqa: ANN001
            seen.append(("plain", node.attr))

        def visit_Call(self, node, ctx) -> None:  # noqa: ANN001
            seen.append(("plain", ctx.text(node.func)))

    class Leaves(Rule):  # a leave handler: the tree walk instead of the index's order
        code, name = "TST003", "leaves"

        def leave_Module(self, node, ctx) -> None:  # noqa: ANN001
            pass

    text = "import jax.numpy as jnp\nprint(jnp.sum(x.mean()), len(x))\n"
    assert _run(Filtered, Plain, Leaves, text=text) == []
    walked = list(seen)
    seen.clear()
    assert _run(Filtered, Plain, text=text) == []
    assert (
        seen
        == walked
        == [
            ("filtered", "print"),
            ("plain", "print"),
            ("filtered", "jnp.sum"),
            ("plain", "jnp.sum"),
            ("filtered", "sum"),
            ("plain", "sum"),
            ("plain", "x.mean"),
            ("plain", "mean"),
            ("plain", "len"),
        ]
    )
