"""tomojax fista_tv_core.py:791/856: np.asarray on a tracer inside try/except Exception is a
deliberate concreteness probe: it raises TracerArrayConversionError, which is caught."""

import jax
import jax.numpy as jnp
import numpy as np


def fixed_geometry_is_available(T_all):  # copy of fista_tv_core._fixed_geometry_is_available
    try:
        arr = np.asarray(T_all, dtype=np.float32)
    except Exception:
        return False
    return arr.ndim == 3 and arr.shape[1:] == (4, 4) and bool(np.isfinite(arr).all())


T = jnp.tile(jnp.eye(4), (5, 1, 1))
print("eager:", fixed_geometry_is_available(T))


@jax.jit
def f(T_all):
    print("traced:", fixed_geometry_is_available(T_all))
    return T_all.sum()


print(f(T))
