"""`log_k`'s `backend` is left at its default "jax" by the traced call of another module
(`bench.py`), which the seed now carries (`Seed.bound_literals`): `if backend == "cpu":`
never runs under tracing, so the NumPy path is the eager one. The twin (`log_k_twin`) is
traced with `backend="cpu"` passed: NumPy on a tracer fails.

From the v39 check set (read once, tuning material since): xshi19/normix
`normix/utils/bessel.py:242-243` and `scripts/benchmark_comprehensive.py:118`:
`jax.jit(lambda v, z: jax.vmap(log_kv)(v, z))` with `log_kv(v, z, backend='jax')`
(JAX101 x2, read FP).
"""

import jax.numpy as jnp
import numpy as np


def _log_cpu(z):
    return np.log(np.asarray(z))


def log_k(z, backend="jax"):
    if backend == "cpu":
        return _log_cpu(z)
    return jnp.log(z)


def _log_cpu_twin(z):
    return np.log(np.asarray(z))  # error: JAX101


def log_k_twin(z, backend="jax"):
    if backend == "cpu":
        return _log_cpu_twin(z)
    return jnp.log(z)
