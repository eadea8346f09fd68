"""analysis/staging.py: inside a staged function (jit, a lax control-flow body, ...) a
jax.numpy call on Python values is a tracer (omnistaging; run with JAX 0.6.2 and 0.12.0.1),
outside one (a bare vmap, `ensure_compile_time_eval`) it is a concrete array."""

from __future__ import annotations

import textwrap

import pytest

from jaxlint import api
from jaxlint.analysis.staging import staged_call

HEAD = "import functools\nimport jax\nimport jax.numpy as jnp\n\n"


def _codes(body: str) -> list[str]:
    from jaxlint.rules import ALL_RULES

    options = api.LintOptions(codes=frozenset(r.code for r in ALL_RULES))
    return [d.code for d in api.lint_text(HEAD + textwrap.dedent(body), "m.py", options)]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        # jax#4471: a mask of static values, still a tracer under jit
        (
            "@functools.partial(jax.jit, static_argnums=1)\n"
            "def f(x, k):\n    mask = jnp.arange(x.shape[0]) < k\n    return x[mask].sum()\n",
            "JAX130",
        ),
        # a scan body is staged even without jit
        (
            "def run(xs):\n    def body(c, x):\n        n = jnp.sqrt(4.0)\n"
            "        if n > 1:\n            c = c + x\n        return c, x\n"
            "    return jax.lax.scan(body, 0.0, xs)\n",
            "JAX110",
        ),
    ],
)
def test_static_operands_give_tracers_when_staged(body: str, code: str) -> None:
    assert code in _codes(body)


@pytest.mark.parametrize(
    "body",
    [
        # a bare vmap runs operations on unbatched values eagerly
        "def f(x, k):\n    mask = jnp.arange(3) < k\n    return x[mask].sum()\n\n"
        "g = jax.vmap(f, in_axes=(0, None))\n",
        # ensure_compile_time_eval: concrete values inside jit
        "@jax.jit\ndef f(x):\n    with jax.ensure_compile_time_eval():\n"
        "        n = jnp.sqrt(4.0)\n        if n > 1:\n            x = x + 1\n    return x\n",
        # shape and dtype functions answer Python values
        "@jax.jit\ndef f(x):\n    if jnp.issubdtype(jnp.float32, jnp.floating):\n"
        "        x = x + 1\n    if jnp.promote_types(jnp.int8, jnp.int16) == jnp.int16:\n"
        "        x = x * 2\n    return x\n",
    ],
)
def test_not_staged_or_not_an_array(body: str) -> None:
    assert not {"JAX110", "JAX130", "JAX101", "JAX120"} & set(_codes(body))


def test_staged_call_table() -> None:
    assert staged_call("jax.numpy.arange")
    assert staged_call("jax.lax.add")
    assert not staged_call("numpy.arange")  # host NumPy: never a tracer
    assert not staged_call("math.sqrt")
    assert not staged_call("jax.numpy.shape")
    assert not staged_call("jax.nn.initializers.normal")
    assert not staged_call(None)
