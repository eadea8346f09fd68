"""The library tables of key flow and dtypes (issue 24), one test per entry.

Why: which library calls draw from a key (`eqx.nn.Linear(..., key=k)`, `model.init(k, x)`,
`apply(..., rngs={"dropout": k})`, an `eqx.nn.Dropout` instance called with `key=`), which
build a key stream from a seed (`nnx.Rngs(0)`), and which layers take a dtype
(`nn.Dense(param_dtype=...)`) are facts of those libraries kept in tables
(analysis/flow/key_terms.py, analysis/x64.py). Each entry gets a program that must be flagged
because of it and a near miss that must not, so an entry that stops working (or a table that
loses one) fails here.
"""

from __future__ import annotations

import textwrap

import pytest

from jaxlint.analysis.flow import key_terms
from jaxlint.analysis.x64 import LIBRARY_DTYPE_KEYWORDS
from jaxlint.core.config import Settings
from jaxlint.engine import LintOptions, lint_text
from jaxlint.rules import ALL_RULES

# the PRNG and dtype rules, those in preview included (JAX207)
CODES = frozenset(
    c for c in Settings(preview=True).selected_codes(ALL_RULES) if c.startswith(("JAX2", "JAX7"))
)


def _codes(src: str) -> list[str]:
    diags = lint_text(textwrap.dedent(src), "case.py", LintOptions(codes=CODES))
    return sorted(d.code for d in diags)


CONSTRUCTOR_CASES = {
    "equinox.nn.": (
        """
        import equinox as eqx
        import jax
        key = jax.random.key(0)
        a = eqx.nn.MLP(2, 2, 4, 2, key=key)
        b = eqx.nn.Conv2d(1, 1, 3, key=key)
        """,
        """
        import equinox as eqx
        import jax
        k1, k2 = jax.random.split(jax.random.key(0))
        a = eqx.nn.MLP(2, 2, 4, 2, key=k1)
        b = eqx.nn.Conv2d(1, 1, 3, key=k2)
        """,
    ),
}

METHOD_CASES = {
    "init": (
        """
        import jax
        def build(actor, critic, x):
            key = jax.random.key(0)
            return actor.init(key, x), critic.init(key, x)
        """,
        """
        import optax
        def build(params):
            tx = optax.sgd(0.1)
            return tx.init(params), tx.init(params)
        """,
    ),
    "init_with_output": (
        """
        import jax
        def build(model, x):
            rng = jax.random.key(0)
            return model.init_with_output({"params": rng}, x), model.init(rng, x)
        """,
        """
        import jax
        def build(model, x):
            k1, k2 = jax.random.split(jax.random.key(0))
            return model.init_with_output({"params": k1}, x), model.init(k2, x)
        """,
    ),
    "apply": (
        """
        import jax
        def run(f, params, xs):
            rng = jax.random.key(0)
            return [f.apply(params, rng, x) for x in xs]
        """,
        """
        import jax
        def run(f, params, xs):
            rng = jax.random.key(0)
            return [f.apply(params, x, deterministic=True, rngs={"dropout": rng}) for x in xs]
        """,
    ),
}

LAYER_CALL_CASES = {
    "equinox.nn.Dropout": (
        """
        import equinox as eqx
        import jax
        drop = eqx.nn.Dropout(0.5)
        def f(x):
            key = jax.random.key(0)
            return drop(x, key=key), drop(x, key=key)
        """,
        """
        import equinox as eqx
        import jax
        lin = eqx.nn.Linear(2, 2, key=jax.random.key(1))
        def f(x):
            key = jax.random.key(0)
            return lin(x, key=key), lin(x, key=key)  # Linear ignores a call-time key
        """,
    ),
    "equinox.nn.MultiheadAttention": (
        """
        import equinox as eqx
        import jax
        att = eqx.nn.MultiheadAttention(2, 4, key=jax.random.key(1))
        def f(q):
            key = jax.random.key(0)
            return att(q, q, q, key=key), att(q, q, q, key=key)
        """,
        """
        import equinox as eqx
        import jax
        att = eqx.nn.MultiheadAttention(2, 4, key=jax.random.key(1))
        def f(q):
            k1, k2 = jax.random.split(jax.random.key(0))
            return att(q, q, q, key=k1), att(q, q, q, key=k2)
        """,
    ),
}

RNGS_CASES = {
    "flax.nnx.Rngs": (
        """
        from flax import nnx
        layers = [nnx.Linear(2, 2, rngs=nnx.Rngs(params=0)) for _ in range(3)]
        """,
        """
        from flax import nnx
        layers = [nnx.Linear(2, 2, rngs=nnx.Rngs(params=i)) for i in range(3)]
        """,
    ),
    "flax.nnx.rnglib.Rngs": (
        """
        from flax.nnx import rnglib
        from flax import nnx
        for _ in range(3):
            layer = nnx.Linear(2, 2, rngs=rnglib.Rngs(0))
        """,
        """
        from flax.nnx import rnglib
        from flax import nnx
        rngs = rnglib.Rngs(0)
        for _ in range(3):
            layer = nnx.Linear(2, 2, rngs=rngs)
        """,
    ),
}

DTYPE_CASES = {
    "flax.linen.": (
        """
        import flax.linen as nn
        import jax.numpy as jnp
        layer = nn.Conv(4, (3, 3), dtype=jnp.float64)
        """,
        """
        import flax.linen as nn
        import jax.numpy as jnp
        layer = nn.Conv(4, (3, 3), dtype=jnp.bfloat16, param_dtype=jnp.float32)
        """,
    ),
    "flax.nnx.": (
        """
        import jax.numpy as jnp
        from flax import nnx
        layer = nnx.Linear(2, 2, param_dtype=jnp.float64, rngs=nnx.Rngs(0))
        """,
        """
        import jax.numpy as jnp
        from flax import nnx
        layer = nnx.Linear(2, 2, param_dtype=jnp.float32, rngs=nnx.Rngs(0))
        """,
    ),
    "equinox.nn.": (
        """
        import equinox as eqx
        import jax
        import jax.numpy as jnp
        layer = eqx.nn.Linear(2, 2, dtype=jnp.float64, key=jax.random.key(0))
        """,
        """
        import equinox as eqx
        import jax
        import jax.numpy as jnp
        layer = eqx.nn.Linear(2, 2, dtype=jnp.float16, key=jax.random.key(0))
        """,
    ),
}


def test_every_table_entry_has_a_case():
    assert set(CONSTRUCTOR_CASES) == set(key_terms.KEY_CONSUMING_CONSTRUCTORS)
    assert set(METHOD_CASES) == set(key_terms.KEY_CONSUMING_METHODS)
    assert set(LAYER_CALL_CASES) == set(key_terms.KEY_CONSUMING_LAYER_CALLS)
    assert set(RNGS_CASES) == set(key_terms.RNGS_MAKERS)
    assert set(DTYPE_CASES) == set(LIBRARY_DTYPE_KEYWORDS)


@pytest.mark.parametrize(
    ("entry", "bad", "good", "code"),
    [(k, b, g, "JAX201") for k, (b, g) in CONSTRUCTOR_CASES.items()]
    + [(k, b, g, "JAX201") for k, (b, g) in METHOD_CASES.items()]
    + [(k, b, g, "JAX201") for k, (b, g) in LAYER_CALL_CASES.items()]
    + [(k, b, g, "JAX202") for k, (b, g) in RNGS_CASES.items()]
    + [(k, b, g, "JAX701") for k, (b, g) in DTYPE_CASES.items()],
    ids=lambda v: v if isinstance(v, str) and "\n" not in v else "",
)
def test_entry_is_found_and_its_near_miss_is_not(entry, bad, good, code):
    assert code in _codes(bad), entry
    assert code not in _codes(good), entry


@pytest.mark.parametrize("name", ["key", "rng", "subkey", "init_key", "rng_params", "prng", "keys"])
def test_key_like_names(name):
    assert key_terms.keyish_name(name)


@pytest.mark.parametrize("name", ["params", "x", "monkey", "keyboard", "opt_state", "batch"])
def test_other_names_are_not_keys(name):
    assert not key_terms.keyish_name(name)
