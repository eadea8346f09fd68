"""analysis/flow/key_products.py: which return paths of a helper carry key-derived values,
and None (unknown) whenever a derived value may leave the helper another way."""

from __future__ import annotations

import ast

import pytest

from jaxlint.analysis.flow.key_products import derived_return_paths
from jaxlint.analysis.imports import ModuleIndex

HEAD = "import jax\nimport jax.numpy as jnp\nG = []\n\n"


def _paths(body: str):
    index = ModuleIndex(ast.parse(HEAD + body))
    fn = next(f for f in index.functions if getattr(f, "name", "") == "f")
    return derived_return_paths(index, fn, {"key"})


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "def f(p, key, n):\n"
            "    key, *ks = jax.random.split(key, n + 1)\n"
            "    ks = jnp.stack(ks).reshape(n, -1)\n"
            "    return p, (p, ks)\n",
            {(1, 1)},
        ),
        ("def f(key):\n    return jax.random.normal(key, (3,))\n", {()}),
        ("def f(key):\n    k = key\n    return 1, [k]\n", {(1,)}),
        ("def f(key):\n    x = jax.random.normal(key, (3,))\n    return 1\n", set()),
        # a dict display's string keys are path elements (v16 rows: jaxQFT's `{"cfg", "weights"}`)
        (
            "def g(key):\n    return jax.random.normal(key, (3,))\n\n"
            "def f(key, n):\n    w = {}\n    ws = []\n"
            "    for _ in range(n):\n        key, k = jax.random.split(key)\n"
            "        ws.append(g(k))\n    w['layers'] = ws\n"
            "    w['head'] = [g(k) for k in jax.random.split(key, 2)]\n"
            "    return {'cfg': {'n': n}, 'weights': w}\n",
            {("weights",)},
        ),
        ("def f(key):\n    return 1, {'a': key, 'b': 2}\n", {(1, "a")}),
        # a jitted helper returns what its def returns (v20 rows: a jitted step's warm-up)
        ("@jax.jit\ndef f(key):\n    return jax.random.split(key)\n", {()}),
        (
            "from functools import partial\n\n@partial(jax.jit, static_argnums=1)\ndef f(key, n):\n"
            "    return 1, 2.0 * jax.random.normal(key, (n,))\n",
            {(1,)},
        ),
    ],
)
def test_known_paths(body: str, expected: set) -> None:
    assert _paths(body) == frozenset(expected)


@pytest.mark.parametrize(
    "body",
    [
        "def f(key):\n    ks = jax.random.split(key)\n    G.append(ks)\n    return ks\n",
        "def f(key, o):\n    o.k = jax.random.split(key)\n    return 1\n",
        "def f(key, d):\n    d['k'] = jax.random.split(key)\n    return 1\n",
        "def f(key):\n    global G\n    G = jax.random.split(key)\n    return G\n",
        "def f(key):\n    ks = jax.random.split(key)\n    return lambda: ks\n",
        "def f(key):\n    ks = jax.random.split(key)\n    yield ks\n",
        # a decorator other than jit may keep or change anything
        "@functools.lru_cache\ndef f(key):\n    return jax.random.split(key)\n",
        "@register\ndef f(key):\n    return jax.random.split(key)\n",
        "def f(key, init):\n    return init(key)\n",
        "def f(key, o):\n    return o.init(key)\n",
        "def f(key, d):\n    d['k'] = key\n    return {'a': 1}\n",
        "def f(key):\n    d = {}\n    d = G\n    d['k'] = key\n    return 1\n",
        "def f(key):\n    print(key)\n    return 1\n",
        "def f(key):\n    ks = jax.random.split(key)\n    for k in ks:\n        G.append(k)\n    return 1\n",
    ],
)
def test_unknown_when_a_derived_value_may_escape(body: str) -> None:
    assert _paths(body) is None
