# source: https://github.com/jax-ml/jax/issues/2287
# family: mutation
# The fix: keep the returned array.
import jax.numpy as jnp
import numpy as np

if __name__ == "__main__":
    dt, n = 1e-3, 100
    tab_x = jnp.zeros(n)
    tab_v = jnp.zeros(n)
    c = 4 * np.pi**2
    x, v = 1.5, 0.0
    for i in range(n):
        x = x + v * dt
        v = v - c * np.sin(x) * dt
        tab_x = tab_x.at[i].set(x)
        tab_v = tab_v.at[i].set(v)
    print("trajectory filled:", bool(tab_x[-1] != 0))
