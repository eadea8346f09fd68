"""A branch on a parameter that every traced application fixes to one literal never runs
under tracing: the jit alias is only ever called with the static `debug_tag=None`, so `if
debug_tag is not None:` (host conversions for a debug print) runs only on the eager path; a
`@jax.jit` def's `nofft=False` that no caller overrides makes `if nofft:` dead (v17 rows,
tuning material: SAMJax jsam/core/dynamics/pressure.py:151-155, snapjax
dataloaders/ssm.py:23, JAX101 x9; `param_constants.py`). The twins: an alias also called
with a tag, and a default one caller overrides: jit traces the `True` it passes, so `if
nofft:` raises TracerBoolConversionError on that call (JAX110 there), and the NumPy arm
never runs on any call (`param_constants.jit_flags`: it held a JAX101 before)."""

import jax
import jax.numpy as jnp
import numpy as np


def _rhs_core(u, dt, debug_tag=None):
    div = jnp.diff(u) / dt
    if debug_tag is not None:
        print(debug_tag, float(jnp.max(jnp.abs(div))))
    return div


_rhs_jit = jax.jit(_rhs_core, static_argnames=("debug_tag",))


def rhs(u, dt, debug):
    if debug:
        return _rhs_core(u, dt, debug_tag="")
    return _rhs_jit(u, dt, debug_tag=None)


@jax.jit
def causal_convolution(u, k, nofft=False):
    if nofft:
        return np.convolve(u, k, mode="full")[: u.shape[0]]
    return jnp.fft.irfft(jnp.fft.rfft(u) * jnp.fft.rfft(k))[: u.shape[0]]


def run(u, k):
    return causal_convolution(u, k)


def _tagged_core(u, dt, debug_tag=None):
    div = jnp.diff(u) / dt
    if debug_tag is not None:
        print(debug_tag, float(jnp.max(jnp.abs(div))))  # error: JAX101
    return div


_tagged_jit = jax.jit(_tagged_core, static_argnames=("debug_tag",))


def tagged(u, dt):
    return _tagged_jit(u, dt, debug_tag=None) + _tagged_jit(u, dt, debug_tag="step")


@jax.jit
def convolution_b(u, k, nofft=False):
    if nofft:  # error: JAX110
        return np.convolve(u, k, mode="full")[: u.shape[0]]
    return jnp.fft.irfft(jnp.fft.rfft(u) * jnp.fft.rfft(k))[: u.shape[0]]


def run_b(u, k):
    return convolution_b(u, k) + convolution_b(u, k, nofft=True)
