import jax
import jax.numpy as jnp
import pytest
import sharp_lib


def test_key_reuse_through_dict():
    sharp_lib.draw_pair({"noise": jax.random.key(0)})


def test_shape_grows_per_call():
    sharp_lib.running_totals(1, 6)


def test_jitted_lambda_in_loop():
    sharp_lib.scale_all([jnp.ones(2)] * 4, 2.0)


def test_tracer_stored_in_global():
    sharp_lib.remember(jnp.ones(3))


def test_static_argument_varies():
    sharp_lib.powers(jnp.ones(2), 5)


@pytest.mark.jaxlint_allow("JAX404")
def test_shape_grows_allowed():
    sharp_lib.running_totals(10, 16)


def test_clean():
    key, x = sharp_lib.clean_run(jax.random.key(1), jnp.ones(4))
    assert x.shape == (4,)


def test_clean_few_shapes():
    sharp_lib.running_totals(20, 22)
