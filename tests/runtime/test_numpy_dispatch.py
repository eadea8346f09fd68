"""The NumPy functions in `jax_api.NUMPY_DISPATCHING` that take an array work on a tracer
under `jax.jit` (NumPy hands the call to the array's own method), and a few that are left
out really fail there: the table JAX101 and the taint analysis read is checked with JAX."""

from __future__ import annotations

import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
np = pytest.importorskip("numpy")

from jaxlint.analysis.jax_api import NUMPY_DISPATCHING  # noqa: E402

CALLS = {
    "sum": lambda a: np.sum(a),
    "mean": lambda a: np.mean(a, axis=0),
    "max": lambda a: np.max(a),
    "amax": lambda a: np.amax(a),
    "prod": lambda a: np.prod(a),
    "argmax": lambda a: np.argmax(a),
    "cumsum": lambda a: np.cumsum(a),
    "reshape": lambda a: np.reshape(a, (3, 2)),
    "transpose": lambda a: np.transpose(a),
    "swapaxes": lambda a: np.swapaxes(a, 0, 1),
    "squeeze": lambda a: np.squeeze(a[None]),
    "repeat": lambda a: np.repeat(a[None], 3, axis=0),
    "searchsorted": lambda a: np.searchsorted(a[0], 1.0),
    "round": lambda a: np.round(a),
    "any": lambda a: np.any(a > 1),
    # they read the dtype or the Python type only: a Python bool, also on a tracer
    "iscomplexobj": lambda a: a * 2 if np.iscomplexobj(a) else a,
    "isrealobj": lambda a: a * 2 if np.isrealobj(a) else a,
    "isscalar": lambda a: a * 2 if np.isscalar(a) else a,
    # `iter(a)` in a try: a Python bool, a 0-d tracer included (v35 squiggle's `_chebint`)
    "iterable": lambda a: a * 2 if np.iterable(a) and not np.iterable(a[0, 0]) else a,
}
FAILING = {
    "take": lambda a: np.take(a, jnp.array([0, 1]), axis=1),
    "argsort": lambda a: np.argsort(a, axis=1),
    "clip": lambda a: np.clip(a, 0, 1),
    "sort": lambda a: np.sort(a),
    "ravel": lambda a: np.ravel(a),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_dispatching_function_works_on_a_tracer(name):
    assert name in NUMPY_DISPATCHING
    jax.jit(CALLS[name])(jnp.arange(6.0).reshape(2, 3))


@pytest.mark.parametrize("name", sorted(FAILING))
def test_other_function_fails_on_a_tracer(name):
    assert name not in NUMPY_DISPATCHING
    with pytest.raises(Exception):  # noqa: B017 - TracerArrayConversionError or TypeError
        jax.jit(FAILING[name])(jnp.arange(6.0).reshape(2, 3))
