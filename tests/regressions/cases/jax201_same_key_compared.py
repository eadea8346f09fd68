"""Two draws from one key whose values are only compared (with each other: a test that runs the
same draw on two devices and asserts the outputs agree; or each with a reference: a
reproducibility test of one key across spellings) reuse the key on purpose: the numbers are
never used as data (v17 rows, tuning material: metaljax tests/test_random.py:46-50; v29 scico
scico/test/test_random.py:48-61, where each draw is compared with another implementation's
value, and `np.testing.assert_array_equal(normal(k), normal(k))` with the draws as operands:
new-user review 4; JAX201; `analysis/equality_checks.py`). The twins: a comparison whose
values are also returned, and one draw compared while the other is used as data."""

import jax
import jax.numpy as jnp
import numpy as np


def test_devices_agree():
    metal, cpu = jax.devices("cpu")[0], jax.devices("cpu")[-1]
    k = jax.random.key(42)
    with jax.default_device(metal):
        um = np.asarray(jax.random.uniform(k, (16,)))
    with jax.default_device(cpu):
        uc = np.asarray(jax.random.uniform(k, (16,)))
    np.testing.assert_array_equal(um, uc)


def check_determinism(seed):
    k = jax.random.key(seed)
    a = jax.random.normal(k, (3,))
    b = jax.random.normal(k, (3,))
    assert bool(jnp.all(a == b))


def noise_pair_twin(seed):
    k = jax.random.key(seed)
    a = jax.random.normal(k, (3,))
    b = jax.random.normal(k, (3,))  # error: JAX201
    assert (a == b).all()
    return a + b


def compared_to_reference(seed, reference):
    k = jax.random.key(seed)
    a = jax.random.normal(k, (3,))
    b = jax.random.normal(k, (3,))
    np.testing.assert_allclose(a, reference)
    np.testing.assert_allclose(b, reference)


def operands_themselves(seed):
    k = jax.random.key(seed)
    np.testing.assert_array_equal(jax.random.normal(k, (3,)), jax.random.normal(k, (3,)))
    assert jnp.allclose(jax.random.uniform(k), jax.random.uniform(k))


def compared_then_used_twin(seed, reference):
    k = jax.random.key(seed)
    a = jax.random.normal(k, (3,))
    b = jax.random.normal(k, (3,))  # error: JAX201
    np.testing.assert_allclose(a, reference)
    return b * 2
