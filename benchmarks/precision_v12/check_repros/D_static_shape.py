"""qdpy-numpyro notebooks/pytrees.ipynb cells 3/4: the static args set output shapes; count traces."""

import jax
import jax.numpy as jnp
import numpy as np

traces = []


def f_test(ell1, ell2):
    traces.append((ell1, ell2))
    ell = np.minimum(ell1, ell2)
    return 2 * jnp.arange(ell)


_f_test = jax.jit(f_test, static_argnums=(0, 1))
for ell in np.arange(5, 10):
    _f_test(ell, ell + 2)
try:
    jax.jit(f_test)(5, 7)
except Exception as e:  # traced ell cannot set a shape
    print("traced ell1/ell2 fails:", type(e).__name__)


class T:
    def __init__(self, ell1):
        self.ell1 = ell1

    def create_m_arr(self, ell2):
        traces.append(("m", ell2))
        return jnp.arange(-ell2, ell2 + 1) + self.ell1


t = T(5)
g = jax.jit(t.create_m_arr, static_argnums=(0,))
for loop, rng in (("81", range(3, 10)), ("86", range(5, 12)), ("93", range(4, 8))):
    n0 = len(traces)
    for ell in rng:
        g(ell).block_until_ready()
    print(f"loop line {loop}: {len(traces) - n0} traces for {len(rng)} calls")
