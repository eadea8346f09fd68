"""A static argument that sets the shape of what the jitted function makes must stay static:
each value needs its own program, and nothing can be hoisted (qdpy-numpyro notebooks/
pytrees.ipynb, `f_test(ell1, ell2)` with `ell = np.minimum(ell1, ell2); 2 * jnp.arange(ell)`,
jitted with `static_argnums=(0, 1)` and called over a range of `ell`). The twin's static
argument is a loop count, which `lax.fori_loop` could take traced: one compile would do."""

import jax
import jax.numpy as jnp
import numpy as np


def f_test(ell1, ell2):
    ell = np.minimum(ell1, ell2)
    return 2 * jnp.arange(ell)


_f_test = jax.jit(f_test, static_argnums=(0, 1))


def run_sizes():
    for ell in np.arange(5, 10):
        print(_f_test(ell, ell + 2))


def rollout(x, n_steps):
    for _ in range(n_steps):  # the count (1 to 64, doubling) is no literal: JAX405 is silent
        x = x * 0.5
    return x


rollout_jit = jax.jit(rollout, static_argnums=1)


def run_horizons(x):
    horizon = 1
    while horizon < 100:
        x = rollout_jit(x, horizon)  # error: JAX403
        horizon *= 2
    return x
