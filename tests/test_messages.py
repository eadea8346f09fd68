"""Messages that quote code or give advice say what holds where the finding is: a cut quote
still closes its brackets, and the way out of the trace named is one the transform has (a
new user's report, stop 51: `static_argnames` offered in a `lax.scan` body and under
`eqx.filter_jit`, "under jit" for a vmapped function, `loss_fn(p, b, ...` left open)."""

from __future__ import annotations

import textwrap

import pytest

from jaxlint.core.config import Settings
from jaxlint.engine import LintOptions, lint_text
from jaxlint.rules.base import short_code

OPTIONS = LintOptions(settings=Settings(preview=True))


@pytest.mark.parametrize(
    ("text", "limit", "expected"),
    [
        ("x.at[0].set(1)", 40, "x.at[0].set(1)"),
        ("jax.jit(lambda p, b: loss_fn(p, b, scale))", 30, "jax.jit(lambda p, b: loss_f...)"),
        ("f('a(b', [1, 2, 3, 4, 5, 6, 7, 8, 9])", 20, "f('a(b', [1, 2, 3...])"),
        ("g(x,\n      y)", 40, "g(x, y)"),
    ],
)
def test_short_code_closes_what_it_opened(text, limit, expected):
    assert short_code(text, limit) == expected


def _messages(src: str) -> list[str]:
    return [d.message for d in lint_text(textwrap.dedent(src), "m.py", OPTIONS)]


def test_jit_offers_static_argnames():
    (msg,) = _messages(
        """
        import jax

        @jax.jit
        def f(x):
            if x > 0:
                return x
            return -x
        """
    )
    assert "under jit" in msg and "static_argnames" in msg


def test_a_scan_body_offers_no_static_argument():
    (msg,) = _messages(
        """
        import jax

        def body(c, x):
            if x > 0:
                c = c + x
            return c, x

        def run(xs):
            return jax.lax.scan(body, 0.0, xs)
        """
    )
    assert "under `jax.lax.scan`" in msg and "static" not in msg.split(";")[-1]


def test_filter_jit_offers_a_python_value():
    msgs = _messages(
        """
        import equinox as eqx
        import jax.numpy as jnp

        @eqx.filter_jit
        def f(x, n):
            return jnp.zeros(n) + x.sum()

        def run(x):
            return f(x, jnp.asarray(3))
        """
    )
    assert msgs and all("static_argnames" not in m for m in msgs)
    assert any("pass a Python value" in m for m in msgs)


def test_vmap_is_named():
    msgs = _messages(
        """
        import jax

        def g(x):
            return float(x)

        h = jax.vmap(g)
        """
    )
    assert msgs and "under `jax.vmap`" in msgs[0] and "static" not in msgs[0].split(";")[-1]


def test_verify_names_no_command_when_none_ran():
    from jaxlint.verify.report import render_text

    report = {
        "file": "p.py",
        "findings": [],
        "capture": {"ok": False, "reason": "no finding to capture inputs for", "functions": {}},
    }
    text = render_text(report)
    assert "None" not in text and "no inputs captured: no finding to capture inputs for" in text


def test_an_update_meant_for_the_callers_array_gets_advice_and_no_fix():
    src = textwrap.dedent(
        """
        import jax.numpy as jnp

        def zero_first(x):
            x[0] = 0.0

        def run():
            a = jnp.ones(3)
            zero_first(a)
            return a
        """
    )
    (d,) = [d for d in lint_text(src, "m.py", OPTIONS) if d.code == "JAX501"]
    assert "the caller's array cannot change: return `x.at[...].set(...)`" in d.message
    assert d.fix is None
