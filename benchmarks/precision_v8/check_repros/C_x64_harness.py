"""jax2onnx: float64 requests inside a function that to_onnx(enable_double_precision=True) traces.

conversion_api._force_jax_x64 (jax2onnx/converter/conversion_api.py:499) flips
jax_enable_x64 on around the tracing; code evaluated eagerly *before* to_onnx
(argument construction, `fn = factory()`, a reference call) still runs with x64 off.
"""

import warnings
from contextlib import contextmanager

import jax
import jax.numpy as jnp
from jax import lax


@contextmanager
def force_x64(enable: bool):  # copy of jax2onnx's _force_jax_x64
    prev = bool(jax.config.read("jax_enable_x64"))
    if prev != enable:
        jax.config.update("jax_enable_x64", enable)
    try:
        yield
    finally:
        if prev != enable:
            jax.config.update("jax_enable_x64", prev)


def traced_fn():  # like tests/extra_tests/loop/test_loop_ff_like_broadcast_mul_regression.py:21
    c = jnp.ones((3,), dtype=jnp.float64)
    _, ys = lax.scan(lambda k, _: (k, c * 2.0), jnp.asarray(0.0, dtype=jnp.float64), None, length=2)
    return ys


with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    with force_x64(True):
        jaxpr = jax.make_jaxpr(traced_fn)()
    print("inside to_onnx-like context:", jaxpr.out_avals, "warnings:", len(w))
    assert jaxpr.out_avals[0].dtype == jnp.float64 and not w

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    y0 = jnp.ones(
        (2,), dtype=jnp.float64
    )  # eager, before to_onnx (test_loop_body_io_relaxation.py:44)
    print("eager before to_onnx:", y0.dtype, "warnings:", [str(x.message)[:60] for x in w])
    assert y0.dtype == jnp.float32 and w
