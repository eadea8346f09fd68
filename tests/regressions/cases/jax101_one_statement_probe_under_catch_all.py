"""JAX101: a one-statement `try` whose handler catches JAX's tracer errors through a base class
(`except Exception:`, `except TypeError:`, a bare `except:`) probes for concreteness on
purpose: under a trace the conversion raises, the handler takes the traced path, and nothing
escapes (analysis/flow/concrete_guards.py `catches_tracer_errors`; every tracer error is a
`jax.errors.JAXTypeError`, a `TypeError`).

Reduced from gerkone/gyaradax gyaradax/precompute.py:76-99 (v33 check set, JAX101 FP x2,
tuning material): `_static_float` and `_static_int` coerce a value to a Python scalar when it
is concrete and fall back to the value (or an int32 array) when it is traced. The near
misses: a longer body under a catch-all handler (it may be catching something else), and a
handler for an error that is no base of the tracer errors (`ValueError`).
"""

import jax
import jax.numpy as jnp


def _static_float(v):
    if isinstance(v, (int, float)):
        return float(v)
    try:
        return float(jnp.asarray(v))
    except Exception:  # ConcretizationTypeError under trace
        return v


def _static_int(v):
    try:
        return int(v)
    except TypeError:
        return jnp.asarray(v, dtype=jnp.int32)


def _scaled(v, scale):
    try:
        scale = scale * 2
        return float(v) * scale  # error: JAX101
    except Exception:
        return v


def _checked(v):
    try:
        return int(v)  # error: JAX101
    except ValueError:
        return 0


@jax.jit
def precompute(x, n):
    return _static_float(x) + _static_int(n) + _scaled(x, 2.0) + _checked(n)
