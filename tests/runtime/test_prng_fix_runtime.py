"""The JAX201 fix leaves no key reuse behind, checked by JAX itself (`jax_debug_key_reuse`).

The fix used to split once before the first draw and leave the later draws on the consumed
key; in a loop or with the key returned, JAX then raised `KeyReuseError` while `--fix` said
"0 remaining" (ux-review B2). Here the fixed code runs with `jax_debug_key_reuse` on (typed
keys), so any consumed key used again raises.
"""

from __future__ import annotations

import pytest

from jaxlint.engine import LintOptions, fix_text
from tests.conftest import snippet

pytestmark = pytest.mark.jax
jax = pytest.importorskip("jax")

SOURCE = snippet(
    """
    import jax


    def three(key):
        a = jax.random.normal(key, (3,))
        b = jax.random.uniform(key, (3,))
        c = jax.random.bernoulli(key, 0.5, (3,))
        return a, b, c


    def in_loop(key, n):
        out = []
        for i in range(n):
            a = jax.random.normal(key, (3,))
            b = jax.random.bernoulli(key, 0.5, (3,))
            out.append((a, b))
        return out


    def returned(key):
        a = jax.random.normal(key, (3,))
        b = jax.random.bernoulli(key, 0.5, (3,))
        return a, b, key


    def run(key):
        k1, k2, k3 = jax.random.split(key, 3)
        out = three(k1)
        out += tuple(in_loop(k2, 3))
        a, b, k3 = returned(k3)
        return out, jax.random.normal(k3, (2,))
    """
)


def _run(text: str) -> None:
    namespace: dict = {}
    exec(compile(text, "<fixed>", "exec"), namespace)  # noqa: S102 - our own test code
    with jax.debug_key_reuse(True):
        namespace["run"](jax.random.key(0))


def test_original_reuses_keys():
    with pytest.raises(jax.errors.KeyReuseError):
        _run(SOURCE)


def test_fixed_code_passes_debug_key_reuse():
    result = fix_text(SOURCE, "fixme.py", LintOptions(codes=frozenset({"JAX201"})), unsafe=True)
    assert result.fixed, "no JAX201 fix was applied"
    assert not result.remaining, [d.message for d in result.remaining]
    assert result.text.count("key, subkey = jax.random.split(key)") == 7
    _run(result.text)
