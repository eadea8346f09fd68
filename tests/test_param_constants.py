"""analysis/param_constants.py: parameters every traced application binds to one literal,
and the `if` arms on them that never run under tracing."""

from __future__ import annotations

import ast

import pytest

from jaxlint.analysis import ModuleFacts
from jaxlint.analysis.param_constants import constant_params, decided_arms, jit_flags

HEAD = "import functools\nimport jax\nimport jax.numpy as jnp\n\n"


def _constants(src: str, name: str = "f") -> dict[str, object]:
    facts = ModuleFacts(ast.parse(HEAD + src))
    taint = facts.traced.taint  # runs the pipeline
    fn = next(n for n in facts.index.functions if getattr(n, "name", "") == name)
    found = constant_params(facts.index, fn, taint.kinds, facts.traced)
    return {k: v.value for k, v in found.items()}


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        # the alias called with the same literal, the eager direct call left out
        (
            "def f(x, tag=None, n=3):\n    return x\n\ng = jax.jit(f, static_argnames='tag')\n"
            "def run(x):\n    f(x, tag='eager')\n    return g(x, tag=None) + g(x, None, 3)\n",
            {"tag": None, "n": 3},
        ),
        # a decorated def: its defaults, no caller overrides them
        (
            "@jax.jit\ndef f(x, nofft=False):\n    return x\n\ndef run(x):\n    return f(x)\n",
            {"nofft": False},
        ),
        # a caller passes another value, or a name: not constant
        (
            "@jax.jit\ndef f(x, n=1, m=2):\n    return x\n\n"
            "def run(x, k):\n    return f(x) + f(x, n=2) + f(x, m=k)\n",
            {},
        ),
        # the function escapes (stored): applications nobody here sees
        ("@jax.jit\ndef f(x, n=1):\n    return x\n\nTABLE = [f]\n", {}),
        # a scan body: JAX's call is a stand-in, no literals
        (
            "def f(c, x, n=1):\n    return c, x\n\n"
            "def run(xs):\n    return jax.lax.scan(f, 0.0, xs)\n",
            {},
        ),
    ],
)
def test_constant_params(src: str, expected: dict) -> None:
    assert _constants(src) == expected


@pytest.mark.parametrize(
    ("test", "arms"),
    [
        ("tag is not None", (True, False)),
        ("tag is None", (False, True)),
        ("not (tag is None)", (True, False)),
        ("nofft", (True, False)),
        ("not nofft", (False, True)),
        ("size is None", (True, False)),  # bound to a value by every application
        ("other is None", (False, False)),
        ("tag == 1", (False, False)),
    ],
)
def test_decided_arms(test: str, arms: tuple[bool, bool]) -> None:
    constants = {"tag": ast.Constant(None), "nofft": ast.Constant(False)}
    assert decided_arms(ast.parse(test, mode="eval").body, constants, {"size"}) == arms


def _flags(src: str, name: str = "f") -> set[str]:
    facts = ModuleFacts(ast.parse(HEAD + "import equinox as eqx\n" + src))
    fn = next(n for n in facts.index.functions if getattr(n, "name", "") == name)
    return set(jit_flags(facts.index, facts.transforms, fn))


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        # not static, a false default: false in every call that does not raise
        (
            "@jax.jit\ndef f(x, a=False, b=0, c=0.0, d=True, e=None, g=''):\n    return x\n",
            {"a", "b", "c"},
        ),
        # pjit, and `partial(jax.jit, ...)` less what it names static
        (
            "@functools.partial(jax.jit, static_argnames=('a',), static_argnums=(2,))\n"
            "def f(x, a=False, b=False, c=False):\n    return x\n",
            {"c"},  # position 2 is `b`
        ),
        # rebound (here or in an inner def), or the transform keeps a Python bool static
        ("@jax.jit\ndef f(x, a=False, b=False):\n    a = a or x.ndim > 1\n    return x\n", {"b"}),
        ("@eqx.filter_jit\ndef f(x, a=False):\n    return x\n", set()),
        # a plain def (a `jit(f)` alias leaves its plain calls eager), or a second decorator
        ("def f(x, a=False):\n    return x\n\ng = jax.jit(f)\n", set()),
        ("@jax.jit\n@functools.wraps(print)\ndef f(x, a=False):\n    return x\n", set()),
        # static positions that JAX cannot resolve: nothing decided
        (
            "@functools.partial(jax.jit, static_argnums=N)\ndef f(x, a=False):\n    return x\n",
            set(),
        ),
    ],
)
def test_jit_flags(src, expected):
    assert _flags(src) == expected


@pytest.mark.parametrize(
    ("test", "expected"),
    [
        ("a", (True, False)),
        ("not a", (False, True)),
        ("a and x", (True, False)),
        ("x and a", (True, False)),
        ("a or x", (False, False)),
        ("not (a and x)", (False, True)),
        ("x", (False, False)),
    ],
)
def test_decided_arms_on_jit_flags(test, expected):
    node = ast.parse(test, mode="eval").body
    assert decided_arms(node, {}, set(), frozenset({"a"})) == expected
