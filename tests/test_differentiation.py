"""analysis/differentiation.py: which functions a grad-like transform differentiates, which of
their parameters carry a derivative, and the helpers reached from them (JAX704 reads it)."""

from __future__ import annotations

import ast
import textwrap

from jaxlint.analysis import ModuleFacts

SRC = textwrap.dedent(
    """
    import jax
    import jax.numpy as jnp
    import equinox as eqx
    from functools import partial

    def helper(v, data):
        n = jnp.linalg.norm(v)
        return n + data

    def loss(params, x):
        y = params["w"] * 2
        s = y.shape
        z = jax.lax.stop_gradient(y)
        return helper(y, x) + helper(x, s) + jnp.sum(z)

    def only_data(a, b):
        return a + b

    def uses(p, x):
        return only_data(x, 1.0) + p

    def prim(a, b):
        return a * b

    def model(m, batch):
        return m(batch)

    def unknown(p, q):
        return p + q

    g = jax.grad(loss)
    vg = jax.jit(jax.value_and_grad(uses, argnums=0))
    out, pullback = jax.vjp(prim, 1.0, 2.0)
    fg = eqx.filter_grad(model)
    ug = jax.grad(unknown, argnums=ARGNUMS)
    jitted = jax.jit(only_data)
    """
)


def _table():
    facts = ModuleFacts(ast.parse(SRC))
    by_name = {getattr(fn, "name", "?"): fn for fn in facts.index.functions}
    d = facts.differentiation
    return d, by_name


def test_entries_differentiate_their_argnums():
    d, fns = _table()
    loss = d.get(fns["loss"])
    assert loss is not None and loss.params == {"params"} and loss.chain == ()
    assert loss.via == "jax.grad" and loss.confidence == "high"
    assert d.get(fns["uses"]).params == {"p"}  # jit(value_and_grad(f, argnums=0))
    assert d.get(fns["prim"]).params == {"a", "b"}  # vjp: every primal
    assert d.get(fns["model"]).params == {"m"}  # equinox: the first argument
    assert d.get(fns["unknown"]) is None  # argnums not literal: nothing proven


def test_helpers_get_the_parameters_a_differentiated_argument_binds():
    d, fns = _table()
    helper = d.get(fns["helper"])
    # helper(y, x): v from params; helper(x, s): `s` is y.shape, x is data
    assert helper is not None and helper.params == {"v"}
    assert helper.chain == ("loss", "helper") and helper.confidence == "medium"
    assert "loss() -> helper()" in helper.describe()
    # only_data(x, 1.0) from `uses` passes data only; jit alone differentiates nothing
    assert d.get(fns["only_data"]) is None


def test_depends_follows_assignments_but_not_metadata_or_stop_gradient():
    d, fns = _table()
    loss = fns["loss"]
    ret = next(n for n in ast.walk(loss) if isinstance(n, ast.Return))
    names = {n.id: n for n in ast.walk(ret.value) if isinstance(n, ast.Name)}
    assert d.depends(loss, names["y"])
    assert not d.depends(loss, names["x"])
    assert not d.depends(loss, names["s"])  # y.shape
    assert not d.depends(loss, names["z"])  # stop_gradient(y)
    assert not d.depends(fns["only_data"], ret.value)  # not differentiated at all
