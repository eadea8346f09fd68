"""analysis/aliasing.py: whether an array updated in place may be reached through another
reference, which decides whether JAX501's `x = x.at[i].set(v)` is a safe fix."""

from __future__ import annotations

import ast

import pytest

from jaxlint.analysis.aliasing import may_be_shared
from jaxlint.analysis.imports import ModuleIndex

HEAD = "import jax\nimport jax.numpy as jnp\n\n"


def _shared(src: str) -> bool:
    tree = ast.parse(HEAD + src)
    index = ModuleIndex(tree)
    stmt = next(
        n
        for n in ast.walk(tree)
        if isinstance(n, (ast.Assign, ast.AugAssign))
        and isinstance(getattr(n, "targets", [getattr(n, "target", None)])[0], ast.Subscript)
    )
    target = stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target
    return may_be_shared(index, target.value, stmt)


@pytest.mark.parametrize(
    ("src", "shared"),
    [
        # a fresh local array, read after or not, in a loop
        ("def f():\n    a = jnp.ones(4)\n    a[3] = -1.0\n    return a\n", False),
        ("def f():\n    a = jnp.ones(4)\n    a[3] = -1.0\n", False),
        (
            "def f():\n    a = jnp.zeros(3)\n    for i in range(3):\n        a[i] += i\n    return a\n",
            False,
        ),
        # the binding that reaches the update decides: a fresh one after an unpacked one
        ("def f(p):\n    a, b = p\n    a = jnp.ones(4) * b\n    a[0] = 0.0\n    return a\n", False),
        (
            "def f(p, c):\n    a, b = p\n    if c:\n        a = jnp.ones(4)\n    a[0] = 0.0\n    return a\n",
            True,
        ),
        # another name for it, a view, an attribute, unpacking
        ("def f():\n    a = jnp.ones(4)\n    b = a\n    b[3] = -1.0\n    return a\n", True),
        ("def f():\n    a = jnp.ones(4)\n    b = a\n    a[3] = -1.0\n    return b\n", True),
        ("def f(g):\n    row = g[0]\n    row[1] = 0.0\n    return g\n", True),
        ("def f(self):\n    w = self.w\n    w[0] = 0.0\n", True),
        ("def f(p):\n    a, b = p\n    a[0] = 0.0\n    return a\n", True),
        # handed to a container, a list, a yield
        (
            "def f(out):\n    a = jnp.ones(4)\n    out.append(a)\n    a[0] = 0.0\n    return a\n",
            True,
        ),
        (
            "def f():\n    a = jnp.ones(4)\n    pair = [a, 1]\n    a[0] = 0.0\n    return pair\n",
            True,
        ),
        # handed on after the update: the holder gets the updated array (not in a loop)
        ("def f():\n    a = jnp.ones(4)\n    a[0] = 0.0\n    return {'a': a}\n", False),
        (
            "def f(out):\n    a = jnp.ones(4)\n    for i in range(3):\n"
            "        a[i] = 0.0\n        out.append(a)\n",
            True,
        ),
        # a parameter: the caller's array, alone only when read again after the update
        ("@jax.jit\ndef f(x):\n    x[0] = 1.0\n    return x\n", False),
        ("@jax.jit\ndef f(x):\n    x[0] = 1.0\n    return 2.0\n", True),
        (
            "def f(x):\n    for i in range(3):\n        y = x + 1\n        x[i] = 1.0\n    return 0\n",
            False,
        ),
        # module level: alone as in a function; a global or an enclosing function's name
        ("a = jnp.ones(4)\na[0] = 0.0\n", False),
        ("a = jnp.ones(4)\nb = a\na[0] = 0.0\n", True),
        ("a = jnp.ones(4)\ndef f():\n    global a\n    a[0] = 0.0\n", True),
        ("a = jnp.ones(4)\ndef f():\n    a[0] = 0.0\n", True),
        ("def f():\n    a = jnp.ones(4)\n    def g():\n        a[0] = 0.0\n    return g\n", True),
    ],
)
def test_may_be_shared(src, shared):
    assert _shared(src) is shared


@pytest.mark.parametrize(
    ("src", "lost"),
    [
        ("def f(x):\n    x[0] = 0.0\n", True),
        ("def f(x):\n    x[0] = 0.0\n    return x\n", False),
        ("def f(x):\n    x = jnp.asarray(x)\n    x[0] = 0.0\n", False),
        ("def f():\n    a = jnp.ones(3)\n    a[0] = 0.0\n", False),
    ],
)
def test_lost_parameter_update(src, lost):
    from jaxlint.analysis.aliasing import lost_parameter_update

    tree = ast.parse(HEAD + src)
    index = ModuleIndex(tree)
    stmt = next(
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Subscript)
    )
    assert lost_parameter_update(index, stmt.targets[0].value, stmt) is lost
