"""The fact behind `param_constants.jit_flags`, run with JAX: in a def that `jax.jit`
decorates, a parameter that is not static is its default or None in every call that does not
raise. A Python bool or number passed for it is traced, and `if flag:` on the tracer raises
TracerBoolConversionError, so with a false default the `if flag:` arm never runs. Named
static, or under `eqx.filter_jit`, the same call runs the arm."""

from __future__ import annotations

from functools import partial

import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

pytestmark = pytest.mark.jax

RAN: list[str] = []


@jax.jit
def act(x, stochastic=False):
    if stochastic:
        RAN.append("arm")
        return x + 1.0
    return x


@partial(jax.jit, static_argnames=("stochastic",))
def act_static(x, stochastic=False):
    if stochastic:
        RAN.append("arm")
        return x + 1.0
    return x


@pytest.mark.parametrize("flag", [True, 1, 1.0, False, 0])
def test_a_passed_flag_is_traced_and_raises_in_an_if(flag):
    with pytest.raises(jax.errors.TracerBoolConversionError):
        act(jnp.ones(2), stochastic=flag)
    with pytest.raises(jax.errors.TracerBoolConversionError):
        act(jnp.ones(2), flag)


def test_left_out_or_none_the_arm_does_not_run():
    RAN.clear()
    assert float(act(jnp.ones(2)).sum()) == 2.0
    assert float(act(jnp.ones(2), stochastic=None).sum()) == 2.0
    assert RAN == []


def test_named_static_the_arm_runs():
    RAN.clear()
    assert float(act_static(jnp.ones(2), stochastic=True).sum()) == 4.0
    assert RAN == ["arm"]


def test_under_filter_jit_a_passed_bool_stays_static():
    eqx = pytest.importorskip("equinox")

    @eqx.filter_jit
    def act_filtered(x, stochastic=False):
        if stochastic:
            return x + 1.0
        return x

    assert float(act_filtered(jnp.ones(2), stochastic=True).sum()) == 4.0
