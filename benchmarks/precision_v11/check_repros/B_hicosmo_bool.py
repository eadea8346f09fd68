"""Settle hicosmo-jax JAX110 rows: `if` / min / max / conditional expr on vmapped or jitted values."""

import jax
import jax.numpy as jnp


def try_(name, f, *a):
    try:
        f(*a)
        print(name, "OK")
    except Exception as e:  # noqa: BLE001
        print(name, type(e).__name__)


def cross_cl_single(ell):  # lensing_cl.py:386-388 pattern under vmap
    if ell < 2:
        return 0.0
    return ell * 1.0


def min_pair(a, b):  # lensing_cl.py:330 pattern
    return min(a, b)


def max_l(ell):  # polarization_cl.py:134 pattern
    return max(ell, 2)


def cond_expr(x):  # lensing_cl.py:320 pattern
    return 1.0 / x if x > 0 else jnp.inf


class C:
    def __init__(self):
        self.chi_star = 10.0
        self.k = jax.jit(self._kernel)

    def _kernel(self, chi):  # lensing_cl.py:114 pattern, jit of a bound method
        if chi >= self.chi_star or chi <= 0:
            return 0.0
        return chi


try_("vmap if", jax.vmap(cross_cl_single), jnp.arange(5))
try_("jit(vmap) if", jax.jit(jax.vmap(cross_cl_single)), jnp.arange(5))
try_("jit min", jax.jit(min_pair), 1.0, 2.0)
try_("jit max", jax.jit(max_l), 3)
try_("jit condexpr", jax.jit(cond_expr), 3.0)
try_("jit bound method if", C().k, 3.0)
try_("vmap(jit bound) if", jax.vmap(C().k), jnp.arange(3.0))
