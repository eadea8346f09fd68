"""Every operation in `jax_api.NO_DERIVATIVE` gives a plain array, not a tracer, under bare
`jax.grad`, `jax.value_and_grad` and `jax.jacrev` (JAX drops a zero tangent), so the taint
analysis may call its result concrete in a grad-only function; a few left out really keep
the tracer. Checked with the installed JAX (the CI legs run 0.6.2, 0.10.2 and 0.12)."""

from __future__ import annotations

import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

from jaxlint.analysis.jax_api import NO_DERIVATIVE  # noqa: E402

BINARY = {"greater", "greater_equal", "less", "less_equal", "equal", "not_equal"}
BINARY |= {"logical_and", "logical_or"}
KEPT = {
    "jax.numpy.abs": jnp.abs,
    "jax.numpy.remainder": lambda y: jnp.remainder(y, 2.0),
    "jax.numpy.heaviside": lambda y: jnp.heaviside(y, 0.0),
    "jax.numpy.maximum": lambda y: jnp.maximum(y, 1.0),
}


def _op(qualname: str):
    module, name = qualname.rsplit(".", 1)
    fn = getattr(jax.lax if module == "jax.lax" else jnp, name)
    if name in BINARY:
        return lambda y: fn(y, 1.0)
    if qualname == "jax.numpy.round":
        return lambda y: fn(y, 2)
    return fn


def _is_tracer_under(transform, op) -> bool:
    seen = []

    def f(x):
        y = x * 3.0
        seen.append(isinstance(op(y), jax.core.Tracer))
        return jnp.sum(y**2)

    transform(f)(jnp.array([1.0, -2.0, 0.537]))
    return seen[0]


TRANSFORMS = {"grad": jax.grad, "value_and_grad": jax.value_and_grad, "jacrev": jax.jacrev}


@pytest.mark.parametrize("transform", sorted(TRANSFORMS))
@pytest.mark.parametrize("qualname", sorted(NO_DERIVATIVE))
def test_no_derivative_gives_a_plain_array(qualname, transform):
    assert not _is_tracer_under(TRANSFORMS[transform], _op(qualname))


@pytest.mark.parametrize("qualname", sorted(KEPT))
def test_others_keep_the_tracer(qualname):
    assert qualname not in NO_DERIVATIVE
    assert _is_tracer_under(jax.grad, KEPT[qualname])


def test_under_jit_every_result_is_a_tracer():
    assert _is_tracer_under(lambda f: jax.jit(jax.grad(f)), jnp.round)
