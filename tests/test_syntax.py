"""Unit tests of `jaxlint.analysis.syntax`: the one home of the tree helpers that every
analysis used to copy (parents, statements, enclosing functions, targets, call arguments,
literals)."""

from __future__ import annotations

import ast

import pytest

from jaxlint.analysis import syntax
from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.syntax import (
    ancestors,
    argument,
    bind_arguments,
    contains,
    enclosing_function,
    keyword,
    literal_ints,
    literal_strs,
    mentions,
    parent,
    positional_params,
    statement_of,
    target_names,
    walk_scope,
)
from tests.conftest import snippet


def indexed(text: str) -> ast.Module:
    tree = ast.parse(snippet(text))
    ModuleIndex(tree)  # sets the parent links
    return tree


def first(tree: ast.AST, kind: type, pred=lambda n: True):  # noqa: ANN001, ANN201
    return next(n for n in ast.walk(tree) if isinstance(n, kind) and pred(n))


def test_parent_links_and_ancestors():
    tree = indexed(
        """
        def f(x):
            if x:
                return g(x + 1)
        """
    )
    add = first(tree, ast.BinOp)
    call = first(tree, ast.Call)
    fn = first(tree, ast.FunctionDef)
    assert parent(add) is call
    assert [type(a).__name__ for a in ancestors(add)] == [
        "Call",
        "Return",
        "If",
        "FunctionDef",
        "Module",
    ]
    assert [type(a).__name__ for a in ancestors(add, stop=fn)] == ["Call", "Return", "If"]
    assert statement_of(add) is first(tree, ast.Return)
    assert contains(fn, add) and not contains(add, fn)
    assert parent(ast.parse("x").body[0]) is None  # not indexed: no links


def test_enclosing_function_and_class_bodies():
    tree = indexed(
        """
        def outer():
            class C:
                size = compute()

                def method(self):
                    return helper()
        """
    )
    in_class = first(tree, ast.Call, lambda c: getattr(c.func, "id", "") == "compute")
    in_method = first(tree, ast.Call, lambda c: getattr(c.func, "id", "") == "helper")
    outer = first(tree, ast.FunctionDef, lambda f: f.name == "outer")
    method = first(tree, ast.FunctionDef, lambda f: f.name == "method")
    assert enclosing_function(in_class) is outer
    assert enclosing_function(in_class, stop_at_class=True) is None
    assert enclosing_function(in_method, stop_at_class=True) is method


def test_target_names_walk_scope_and_mentions():
    tree = indexed(
        """
        a, (b, *c), d.attr, e[0] = value

        def f():
            inner = 1
        """
    )
    assign = first(tree, ast.Assign)
    assert list(target_names(assign.targets[0])) == ["a", "b", "c"]
    names = {n.id for n in walk_scope(tree) if isinstance(n, ast.Name)}
    assert "inner" not in names and {"a", "value"} <= names
    assert any(isinstance(n, ast.FunctionDef) for n in walk_scope(tree))  # the def binds `f`
    assert mentions(assign.value, {"value"}) and not mentions(assign, {"a"})  # a store


def test_call_arguments_and_parameters():
    tree = indexed(
        """
        class M:
            def run(self, x, y=1, *rest, z):
                pass

        m.run(1, 2, z=3)
        M.run(m, 1)
        f(*args, y=2)
        """
    )
    fn = first(tree, ast.FunctionDef)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    bound_call, plain_call, starred = calls
    assert positional_params(fn) == ["self", "x", "y"]
    assert positional_params(fn, bound=True) == ["x", "y"]
    assert {k: ast.unparse(v) for k, v in bind_arguments(bound_call, fn).items()} == {
        "x": "1",
        "y": "2",
        "z": "3",
    }
    # `M.run(m, 1)` is an attribute call too: a leading self is skipped unless told otherwise
    assert set(bind_arguments(plain_call, fn, bound=False)) == {"self", "x"}
    assert set(bind_arguments(starred, fn, bound=False)) == {"y"}  # positions unknown
    assert ast.unparse(keyword(bound_call, "z")) == "3" and keyword(bound_call, "w") is None
    assert ast.unparse(argument(bound_call, 1, "y")) == "2"
    assert argument(starred, 0, "x") is None


def test_literals():
    assert literal_ints(ast.parse("(0, 2)", mode="eval").body) == (0, 2)
    assert literal_ints(ast.parse("True", mode="eval").body) is None
    assert literal_ints(None) == ()
    assert literal_strs(ast.parse("['a', 'b']", mode="eval").body) == ("a", "b")
    assert literal_strs(ast.parse("n", mode="eval").body) is None


def test_the_shared_operator_singletons_get_no_parent() -> None:
    """`ast.parse` shares `Load`, `Add`, `Eq`, ... between all trees: a parent link on one
    pointed into the last tree indexed and kept that whole tree (and its facts) alive, so no
    lint's garbage could be freed young. The nodes around them keep their links."""
    import gc

    from jaxlint.analysis.imports import ModuleIndex
    from jaxlint.analysis.syntax import node_fields, parent

    tree = ast.parse("a = b + c < d\n")
    ModuleIndex(tree)
    compare = tree.body[0].value
    assert parent(compare.left.op) is None and parent(compare.ops[0]) is None
    assert parent(compare.left.left.ctx) is None
    assert parent(compare.left.left) is compare.left
    if hasattr(ast.Constant, "_field_types"):  # 3.13+: the fields that can hold nodes
        assert node_fields(ast.Constant) == () and node_fields(ast.Name) == ("ctx",)
    else:  # older Pythons: every field (correct, only slower)
        assert set(node_fields(ast.Name)) >= {"ctx"}
    # nothing but the tree holds it: once dropped it is garbage of the youngest generation
    gc.collect()
    gc.disable()
    try:
        tree = ast.parse("def f(x):\n    return x + 1\n")
        ModuleIndex(tree)
        marker = tree.body[0]
        count = sum(1 for o in gc.get_objects(0) if o is marker)
        del tree, marker
        gc.collect(0)
        assert count == 1
        assert not any(isinstance(o, ast.FunctionDef) for o in gc.get_objects(1))
    finally:
        gc.enable()


def _old_own_returns(fn):
    """The generic walk `own_returns` replaced (every node, expressions too)."""
    out = []
    stack = list(ast.iter_child_nodes(fn))
    while stack:
        cur = stack.pop()
        if isinstance(cur, ast.Return):
            out.append(cur)
        if not isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(cur))
    return out


_EVERY_BLOCK = """
def f(x):
    if x:
        return 1
    elif x > 2:
        return (lambda: 3)()
    else:
        for i in x:
            return i
        else:
            return 4
    while x:
        return 5
    try:
        return 6
    except ValueError:
        return 7
    except* TypeError:
        pass
    else:
        return 8
    finally:
        return 9
    with open(x) as fh:
        return fh
    match x:
        case [a]:
            return a
        case _:
            return 10
    def g():
        return 11
    class C:
        def h(self):
            return 12
    async def k():
        return 13
    return 14
"""


def test_own_returns_walks_statements_only_with_the_old_answer_and_order():
    import pathlib

    import jaxlint

    sources = [_EVERY_BLOCK.replace("except* TypeError", "except TypeError")]
    root = pathlib.Path(jaxlint.__file__).parent
    sources += [p.read_text() for p in sorted(root.glob("analysis/*.py"))[:12]]
    checked = 0
    for text in sources:
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                assert syntax.own_returns(node) == _old_own_returns(node)
                assert syntax.child_nodes(node) == list(ast.iter_child_nodes(node))
                checked += 1
    assert checked > 100
    f = ast.parse(sources[0]).body[0]
    values = [r.value for r in syntax.own_returns(f)]
    assert sorted(v.value for v in values if isinstance(v, ast.Constant)) == [
        1,
        4,
        5,
        6,
        7,
        8,
        9,
        10,
        14,
    ]


def test_nested_statements_reach_every_global():
    tree = ast.parse(
        "def f():\n    if a:\n        global X\n    def g():\n        global Y\n"
        "    class C:\n        try:\n            pass\n        except E:\n            global Z\n"
    )
    found = [s for s in syntax.nested_statements(tree.body[0]) if isinstance(s, ast.Global)]
    assert {n for s in found for n in s.names} == {"X", "Y", "Z"}


def test_dump_mentions_is_a_substring_test_of_ast_dump():
    # identifiers, attributes, string and bytes constants (escaped or not), f-strings, keyword
    # names; repr's escapes never make or break the word
    sources = [
        "ClassVar[int]",
        "typing.ClassVar",
        "'ClassVar'",
        "b'xClassVarx'",
        "'Class\\x56ar'",
        "'Class\\nVar'",
        "'ClassVa\\r'",
        "f'{ClassVar}'",
        "f(ClassVar=1)",
        "Optional[int]",
        "ＣｌａｓｓＶａｒ",
        "lambda ClassVar: 0",
        "{'a': None, **ClassVar}",
    ]
    for source in sources:
        node = ast.parse(source, mode="eval").body
        for word in ("ClassVar", "Optional", "Var"):
            assert syntax.dump_mentions(node, word) == (word in ast.dump(node)), (source, word)


@pytest.mark.parametrize(
    ("fallback", "resolved"),
    [
        ("from utils import pad_to", True),  # the module beside, as a script
        ("pad_to = getattr(_mod, 'pad_to')", True),  # the file loaded by hand
        ("from pkg.utils import pad_to", True),  # the same module, by its package
        ("from numpy import pad_to", False),  # another module: another function
        ("from other import pad_to", False),
        ("from utils import crop as pad_to", False),  # another name of that module
        ("import utils as pad_to", False),
    ],
)
def test_a_try_import_with_a_fallback_of_the_same_function(fallback, resolved):
    """`try: from .utils import f` / `except ImportError: from utils import f` binds the
    function the try imports (`imports._import_fallback`); any other fallback is unknown."""
    src = f"try:\n    from .utils import pad_to\nexcept ImportError:\n    {fallback}\n"
    index = ModuleIndex(ast.parse(src))
    b = index.binding("pad_to", index.scopes[index.tree])
    assert (b is not None and b.node is index.tree.body[0].body[0]) is resolved
