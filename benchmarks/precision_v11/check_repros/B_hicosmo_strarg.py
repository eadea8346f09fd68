"""polarization_cl.py:97,183: jit(self._polarization_transfer_function) called as f(k, l, 'E').

Does jit reject the str argument before the body (with its `if l < 2`) is traced?
"""

import jax
import jax.numpy as jnp

reached = []


def transfer(k, ell, mode="E"):
    reached.append(True)
    if ell < 2:
        return 0.0
    return k * ell


f = jax.jit(transfer)
try:
    jax.vmap(lambda k: f(k, 5, "E"))(jnp.arange(3.0))
    print("OK")
except Exception as e:  # noqa: BLE001
    print(type(e).__name__, str(e).splitlines()[0][:150])
print("body traced:", bool(reached))
reached.clear()
try:
    jax.vmap(lambda k: f(k, 5))(jnp.arange(3.0))  # default mode: body is traced
    print("OK")
except Exception as e:  # noqa: BLE001
    print(type(e).__name__)
print("body traced (default mode):", bool(reached))
