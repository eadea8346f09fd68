"""`if backend == "cpu":` on a parameter that every traced application leaves at its default
`"jax"` never runs under tracing (`param_constants.decided_arms` now decides `==` and `!=`
against a literal, as it decided `if p:` and `is None`): the NumPy path behind it is the
eager one. The twin's traced application passes `backend="cpu"`: NumPy on a tracer fails.

From the v39 check set (read once, tuning material since): xshi19/normix
`normix/utils/bessel.py:242-243`: `log_kv(v, z, backend='jax')` dispatches to a SciPy
implementation only for `backend == 'cpu'`, which only eager calls pass (JAX101 x2, read FP;
there the traced call comes from another module, which this fact does not reach yet).
"""

import jax
import jax.numpy as jnp
import numpy as np


def _log_cpu(z):
    return np.log(np.asarray(z))


def log_k(z, backend="jax"):
    if backend == "cpu":
        return _log_cpu(z)
    return jnp.log(z)


def eager(z):
    return log_k(z, backend="cpu")


batched = jax.jit(lambda z: jax.vmap(log_k)(z))


def _log_cpu_twin(z):
    return np.log(np.asarray(z))  # error: JAX101


def log_k_twin(z, backend="jax"):
    if backend == "cpu":
        return _log_cpu_twin(z)
    return jnp.log(z)


batched_twin = jax.jit(lambda z: log_k_twin(z, backend="cpu"))
