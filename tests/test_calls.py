"""The call graph (analysis/calls.py): each call resolved once to what it runs."""

from __future__ import annotations

import ast
import textwrap

import pytest

from jaxlint.analysis import CallKind, ModuleFacts

SRC = textwrap.dedent(
    """
    import functools
    import jax
    from flax import nnx
    from other import ext_fn

    def helper(x, y=1):
        return x

    def loss(p, b):
        return p

    class Vision(nnx.Module):
        def __call__(self, x):
            return x

    class Inner(nnx.Module):
        def __init__(self):
            self.visual = Vision()

        def encode(self, x):
            return x

    class Model(nnx.Module):
        def __init__(self):
            self.model = Inner()
            self.vis = Vision()

        def step(self, x):
            return x

        def __call__(self, x):
            a = self.model.visual(x)
            b = self.vis(x)
            c = self.step(x)
            d = self.model.encode(x)
            return a, b, c, d

    def main(x, p, tree):
        helper(x)
        jax.grad(loss)(p, x)
        g = jax.jit(loss)
        g(p, x)
        functools.partial(helper, y=2)(x)
        ph = functools.partial(helper, x)
        ph(3)
        jax.tree.map(helper, tree)
        m = Model()
        m(x)
        ext_fn(x)
        unknown_name(x)
    """
)


@pytest.fixture(scope="module")
def graph():
    facts = ModuleFacts(ast.parse(SRC))
    defs = {
        (getattr(n, "name", "")): n for n in ast.walk(facts.tree) if isinstance(n, ast.FunctionDef)
    }
    calls = {ast.unparse(c): c for c in facts.index.calls}
    return facts.calls, defs, calls


def _methods(tree_node: ast.AST, cls: str, name: str) -> ast.AST:
    for n in ast.walk(tree_node):
        if isinstance(n, ast.ClassDef) and n.name == cls:
            return next(s for s in n.body if isinstance(s, ast.FunctionDef) and s.name == name)
    raise AssertionError(cls)


@pytest.mark.parametrize(
    ("call", "kind", "cls", "name", "bound"),
    [
        ("helper(x)", CallKind.FUNCTION, None, "helper", False),
        ("jax.grad(loss)(p, x)", CallKind.TRANSFORMED, None, "loss", False),
        ("g(p, x)", CallKind.TRANSFORMED, None, "loss", False),
        ("functools.partial(helper, y=2)(x)", CallKind.PARTIAL, None, "helper", False),
        ("ph(3)", CallKind.PARTIAL, None, "helper", False),
        ("jax.tree.map(helper, tree)", CallKind.MAPPED, None, "helper", False),
        ("self.model.visual(x)", CallKind.MODULE_CALL, "Vision", "__call__", True),
        ("self.vis(x)", CallKind.MODULE_CALL, "Vision", "__call__", True),
        ("self.step(x)", CallKind.METHOD, "Model", "step", True),
        ("self.model.encode(x)", CallKind.METHOD, "Inner", "encode", True),
        ("m(x)", CallKind.MODULE_CALL, "Model", "__call__", True),
        ("Model()", CallKind.CONSTRUCTOR, "Model", "__init__", True),
    ],
)
def test_call_resolved(graph, call, kind, cls, name, bound):
    cg, defs, calls = graph
    t = cg.target(calls[call])
    assert t is not None and t.kind is kind
    want = _methods(cg.index.tree, cls, name) if cls else defs[name]
    assert t.function is want
    assert t.bound_self is bound
    assert cg.target(calls[call]) is t  # resolved once


def test_partial_arguments_come_first(graph):
    cg, _, calls = graph
    t = cg.target(calls["ph(3)"])
    assert [ast.unparse(a) for a in t.args] == ["x", "3"]
    assert [ast.unparse(a) for a in t.partial_args] == ["x"]
    t = cg.target(calls["functools.partial(helper, y=2)(x)"])
    assert [k for k, _ in t.partial_keywords] == ["y"] and "y" in t.keyword_map


def test_transform_named_and_mapped_trees(graph):
    cg, _, calls = graph
    t = cg.target(calls["g(p, x)"])
    assert t.transform == "jax.jit" and t.through_name
    assert not cg.target(calls["jax.grad(loss)(p, x)"]).through_name
    assert [ast.unparse(a) for a in cg.target(calls["jax.tree.map(helper, tree)"]).args] == ["tree"]


def test_other_modules_by_qualified_name(graph):
    cg, _, calls = graph
    t = cg.target(calls["ext_fn(x)"])
    assert t.kind is CallKind.EXTERNAL and t.qualname == "other.ext_fn" and t.function is None
    assert cg.target(calls["unknown_name(x)"]) is None or (
        cg.target(calls["unknown_name(x)"]).function is None
    )


def test_three_attribute_levels_are_not_followed():
    src = textwrap.dedent(
        """
        from flax import nnx
        class C(nnx.Module):
            def __call__(self, x):
                return x
        class B(nnx.Module):
            def __init__(self):
                self.c = C()
        class A(nnx.Module):
            def __init__(self):
                self.b = B()
        class Top(nnx.Module):
            def __init__(self):
                self.a = A()
            def __call__(self, x):
                return self.a.b.c(x)
        """
    )
    facts = ModuleFacts(ast.parse(src))
    (call,) = [c for c in facts.index.calls if ast.unparse(c) == "self.a.b.c(x)"]
    assert facts.calls.target(call) is None


def test_one_graph_per_module_shared_with_the_traced_table():
    facts = ModuleFacts(ast.parse(SRC))
    assert facts.traced.calls is facts.calls


IGNORED = textwrap.dedent(
    """
    import functools
    import jax

    def reset(key, n=2):
        return n

    def drawing(key):
        return jax.random.normal(key)

    def closure(key):
        return lambda: key

    def by_locals(key):
        return locals()

    def any_kw(**kw):
        return 0

    def varargs(*args):
        return 0

    class Env:
        def reset(self, key):
            return 0

    e = Env()
    reset(k1)
    jax.vmap(reset)(k2)
    functools.partial(reset, n=3)(k3)
    e.reset(k4)
    reset(n=k5, key=k6)
    drawing(k7)
    closure(k8)
    by_locals(k9)
    any_kw(key=k10)
    varargs(k11)
    unknown(k12)
    """
)


@pytest.mark.parametrize(
    ("name", "ignored"),
    [
        ("k1", True),  # a parameter the def never reads
        ("k2", True),  # through a transform
        ("k3", True),  # through a partial
        ("k4", True),  # a method through an instance (`self` skipped)
        ("k5", False),  # `n` is read
        ("k6", True),
        ("k7", False),  # drawn from
        ("k8", False),  # a closure reads it
        ("k9", False),  # `locals()` may read anything
        ("k10", False),  # into `**kw`
        ("k11", False),  # into `*args`
        ("k12", False),  # nothing known runs
    ],
)
def test_ignored_argument(name: str, ignored: bool) -> None:
    """`CallGraph.ignored_argument`: an argument bound to a parameter its def never reads."""
    facts = ModuleFacts(ast.parse(IGNORED))
    (arg,) = [
        n
        for n in ast.walk(facts.index.tree)
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
    ]
    assert facts.calls.ignored_argument(arg) is ignored
